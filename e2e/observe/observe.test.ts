// The Observe engine in real Chromium, where layout, shadow DOM, frames and timing are real.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { observeBundle } from './bundle'
import { startServer, type StaticServer } from './server'
import { elementPlusPage } from '../../bench/lib/observe-pages'
import { listedIds } from '../../test/dom/observe/listing'

let browser: Browser
let a: StaticServer // http://127.0.0.1:<port>
let b: StaticServer // http://localhost:<port>, another origin

beforeAll(async () => {
  ;[browser, a, b] = await Promise.all([launchBrowser(), startServer(), startServer({ host: 'localhost' })])
})
afterAll(async () => {
  await browser?.close()
  await Promise.all([a?.close(), b?.close()])
})

async function open(url: string, init?: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  if (init) await page.addInitScript(init)
  await page.goto(url, { waitUntil: 'load' })
  await page.addScriptTag({ content: await observeBundle() })
  return page
}

type Row = { id: string; label: string; type: string; inViewport: boolean; frame?: string }
const snapshot = (page: Page): Promise<{ elements: Row[]; frames: any[]; stats: any }> =>
  page.evaluate(() => {
    const s = (window as any).__avaObserve.observe()
    return {
      elements: s.elements.map((e: any) => ({
        id: e.id,
        label: e.label,
        type: e.type,
        inViewport: e.inViewport,
        frame: e.frame,
      })),
      frames: s.frames,
      stats: s.stats,
    }
  })

describe('visibility', () => {
  test('only what a person can see and reach is indexed', async () => {
    const page = await open(a.url('/visibility.html'))
    const s = await snapshot(page)
    expect(s.elements.map((e) => e.label)).toEqual([
      'Visible',
      'Styled checkbox',
      'Clickable div',
      'Link inside clickable',
      'Aria hidden but shown',
      'Closed details',
      'Far below',
    ])
    expect(s.elements.find((e) => e.label === 'Styled checkbox')?.type).toBe('checkbox')
    expect(s.elements.find((e) => e.label === 'Far below')?.inViewport).toBe(false)
    expect(s.elements.find((e) => e.label === 'Visible')?.inViewport).toBe(true)
    await page.close()
  })
})

describe('styles read from the stylesheets', () => {
  // The scan reads display and cursor only where a rule, inline style or the UA may set them.
  const body =
    '<div class="go">Sheet pointer <span>inner</span></div><div class="wide">Media pointer</div><div style="cursor:pointer">Inline pointer</div>' +
    '<div class="gone"><button>Hidden by class</button></div><div class="box"><p class="x"><button>Hidden by child rule</button></p></div>' +
    '<dialog><button>In closed dialog</button></dialog><div class="go"><div class="go">Nested pointer</div></div><p>Plain <button>Shown</button></p>'
  const sheet =
    '.go{cursor:pointer}@media (min-width:1px){.wide{cursor:pointer}}.gone{display:none}.box>.x{display:none}'
  const expected = ['Sheet pointer inner', 'Media pointer', 'Inline pointer', 'Nested pointer', 'Shown']

  for (const [name, css] of [
    ['a few rules', sheet],
    [
      'too many rules to match (every style read)',
      sheet + Array.from({ length: 40 }, (_, i) => `.r${i}{cursor:default}`).join(''),
    ],
  ]) {
    test(name, async () => {
      const page = await open(a.url('/visibility.html'))
      await page.setContent(`<style>${css}</style>${body}`)
      await page.addScriptTag({ content: await observeBundle() })
      const s = await snapshot(page)
      expect(s.elements.map((e) => e.label)).toEqual(expected)
      await page.close()
    })
  }

  test('rules inside a shadow root and adopted sheets', async () => {
    const page = await open(a.url('/visibility.html'))
    await page.setContent('<div id="host"></div><div class="adopted">Adopted pointer</div>')
    await page.evaluate(() => {
      const root = document.getElementById('host')!.attachShadow({ mode: 'open' })
      root.innerHTML =
        '<style>.in{cursor:pointer}.off{display:none}</style><div class="in">Shadow pointer</div><div class="off"><button>Off</button></div>'
      const s = new CSSStyleSheet()
      s.replaceSync('.adopted{cursor:pointer}')
      document.adoptedStyleSheets = [s]
    })
    await page.addScriptTag({ content: await observeBundle() })
    const s = await snapshot(page)
    expect(s.elements.map((e) => e.label)).toEqual(['Shadow pointer', 'Adopted pointer'])
    await page.close()
  })
})

describe('roles and names in the browser', () => {
  test('implicit roles, label association and an icon button', async () => {
    const page = await open(a.url('/visibility.html'))
    await page.setContent(
      '<nav><a href="/a">Docs</a></nav><main><label for="q">Query</label><input id="q"><button><svg aria-label="Search"></svg></button>' +
        '<select aria-label="Size"><option>S</option><option selected>M</option></select><div role="slider" aria-label="Volume" aria-valuenow="7" tabindex="0" style="width:100px;height:8px"></div></main>',
    )
    await page.addScriptTag({ content: await observeBundle() })
    const s = await page.evaluate(() =>
      (window as any).__avaObserve
        .observe()
        .elements.map((e: any) => [e.id, e.type, e.role, e.label, e.state.value ?? null]),
    )
    expect(s).toEqual([
      ['link_docs', 'link', 'link', 'Docs', null],
      ['input_query', 'text_input', 'textbox', 'Query', ''],
      ['btn_search', 'button', 'button', 'Search', null],
      ['select_size', 'select', 'combobox', 'Size', 'M'],
      ['input_volume', 'text_input', 'slider', 'Volume', '7'],
    ])
    await page.close()
  })
})

describe('shadow DOM', () => {
  test('open shadow roots (nested, slotted) are scanned; closed ones cannot be', async () => {
    const page = await open(a.url('/shadow.html'))
    const s = await snapshot(page)
    expect(s.elements.map((e) => e.id).sort()).toEqual([
      'btn_nested_shadow',
      'btn_shadow_button',
      'input_shadow_field',
      'link_slotted_link',
    ])
    const resolved = await page.evaluate(
      () => (window as any).__avaObserve.resolveHandle('btn_shadow_button').getRootNode() instanceof ShadowRoot,
    )
    expect(resolved).toBe(true)
    await page.close()
  })
})

describe('frames', () => {
  test('same-origin frames are merged with a prefix; cross-origin ones are listed restricted and can be merged', async () => {
    a.page(
      '/frames.html',
      `<!doctype html><button>Top</button><iframe name="pay" src="/frame-inner.html" style="width:400px;height:120px"></iframe><iframe src="${b.url('/frame-inner.html')}" style="width:400px;height:120px"></iframe>`,
    )
    const page = await open(a.url('/frames.html'))
    const s = await snapshot(page)
    expect(s.elements.map((e) => e.id)).toEqual(['btn_top', 'frame_pay_input_card_number', 'frame_pay_btn_pay_now'])
    expect(s.frames.map((f: any) => [f.id.replace(/\d+$/, 'N'), f.status])).toEqual([
      ['frame_pay', 'merged'],
      ['frame_fN', 'cross_origin_restricted'],
    ])
    expect(s.frames[1].url).toBe(b.url('/frame-inner.html'))
    // The id resolves to the element inside the frame.
    expect(
      await page.evaluate(() => (window as any).__avaObserve.resolveHandle('frame_pay_btn_pay_now').textContent),
    ).toBe('Pay now')

    // The cross-origin frame scans itself (as the content script there will) and the parent merges it.
    const child = page.frames().find((f) => f.url().startsWith(b.origin))!
    await child.addScriptTag({ content: await observeBundle() })
    const childSnap = await child.evaluate(() => (window as any).__avaObserve.observe())
    const merged = await page.evaluate(
      ([snap, fid]) => {
        const api = (window as any).__avaObserve
        const m = api.mergeFrameSnapshot(api.observe(), fid, snap)
        return { ids: m.elements.map((e: any) => e.id), status: m.frames.find((f: any) => f.id === fid).status }
      },
      [childSnap, s.frames[1].id],
    )
    expect(merged.status).toBe('merged')
    expect(merged.ids).toContain(`${s.frames[1].id}_btn_pay_now`)
    await page.close()
  })
})

describe('stable ids across re-renders', () => {
  test("a Vue list re-rendered with a row inserted keeps the other rows' ids; a removed row goes stale", async () => {
    const page = await open(a.url('/vue-list.html'))
    const before = (await snapshot(page)).elements.map((e) => e.id)
    expect(before).toEqual(['btn_delete_near_apple', 'btn_delete_near_banana', 'btn_delete_near_cherry'])
    await page.evaluate(() => (window as any).insertRow('Date'))
    const after = (await snapshot(page)).elements.map((e) => e.id)
    expect(after).toEqual(['btn_delete_near_date', ...before])

    await page.evaluate(() => (window as any).removeRow('Banana'))
    await page.evaluate(() => new Promise((r) => setTimeout(r, 0)))
    const stale = await page.evaluate(() => {
      const r = (window as any).__avaObserve.safeResolveHandle('btn_delete_near_banana')
      return r.ok ? 'resolved' : r.error.code
    })
    expect(stale).toBe('ELEMENT_STALE')
    const ids = (await snapshot(page)).elements.map((e) => e.id)
    expect(ids).toEqual(['btn_delete_near_date', 'btn_delete_near_apple', 'btn_delete_near_cherry'])
    await page.close()
  })
})

describe('readiness', () => {
  // Counts the page's in-flight fetches, as the background will with chrome.webRequest.
  const counter = `window.__pending = 0; const f = window.fetch; window.fetch = (...a) => { window.__pending++; return f(...a).finally(() => window.__pending--) }`

  test('a long poll and a CSS animation do not keep the page from being ready', async () => {
    const page = await open(a.url('/readiness.html?polls=1'), counter)
    const r = await page.evaluate(() =>
      (window as any).__avaObserve.waitForReady({
        quietWindowMs: 300,
        maxWaitMs: 5000,
        requests: { pending: () => (window as any).__pending },
      }),
    )
    expect(r).toMatchObject({ ready: true, reason: 'quiet', pendingRequests: 1, loadState: 'complete' })
    await page.close()
  })

  test('more long polls than allowed end at the cap instead of waiting forever', async () => {
    const page = await open(a.url('/readiness.html?polls=3'), counter)
    const r = await page.evaluate(() =>
      (window as any).__avaObserve.waitForReady({
        quietWindowMs: 200,
        maxWaitMs: 1500,
        requests: { pending: () => (window as any).__pending },
      }),
    )
    expect(r).toMatchObject({ ready: false, reason: 'timeout', pendingRequests: 3 })
    expect(r.waitedMs).toBeGreaterThanOrEqual(1500)
    await page.close()
  })

  test('page errors during the wait are reported', async () => {
    const page = await open(a.url('/readiness.html?polls=0'))
    const r = await page.evaluate(() => {
      const p = (window as any).__avaObserve.waitForReady({ quietWindowMs: 300, maxWaitMs: 3000 })
      setTimeout(() => {
        throw new Error('widget failed')
      }, 10)
      return p
    })
    expect(r.errors).toEqual([expect.stringContaining('widget failed')])
    await page.close()
  })
})

describe('dynamic content', () => {
  test('scrollAndCollect gathers an infinite feed until the stop condition; the sentinel is a lazy region', async () => {
    const page = await open(a.url('/infinite.html'))
    const lazy = await page.evaluate(() => (window as any).__avaObserve.observe().lazyRegions.map((l: any) => l.kind))
    expect(lazy).toContain('sentinel')
    const r = await page.evaluate(() =>
      (window as any).__avaObserve
        .scrollAndCollect({
          maxScrolls: 20,
          delayMs: 50,
          stopWhen: (els: any[]) => els.some((e) => e.id === 'link_read_post_35'),
        })
        .then((x: any) => ({ reason: x.reason, ids: x.elements.map((e: any) => e.id) })),
    )
    expect(r.reason).toBe('stopped')
    expect(r.ids).toContain('link_read_post_1')
    expect(r.ids).toContain('link_read_post_35')
    expect(new Set(r.ids).size).toBe(r.ids.length)
    const end = await page.evaluate(() =>
      (window as any).__avaObserve
        .scrollAndCollect({ maxScrolls: 30, delayMs: 50 })
        .then((x: any) => [x.reason, x.elements.length]),
    )
    expect(end).toEqual(['end', 60])
    await page.close()
  })
})

describe('Element Plus admin page', () => {
  test('menus, form controls, the open dialog and table rows are indexed and listed under budget', async () => {
    a.page('/element-plus.html', elementPlusPage())
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.goto(a.url('/element-plus.html'))
    await page.waitForSelector('.el-table__row')
    await page.addScriptTag({ content: await observeBundle() })
    const out = await page.evaluate(() => {
      const api = (window as any).__avaObserve
      const s = api.observe()
      const listing = api.serialize(s, { request: '删除 1042' })
      const target = s.elements.find((e: any) => e.label === '删除' && / 1042 /.test(` ${e.context} `))
      return {
        target: target?.id,
        ids: s.elements.map((e: any) => e.id),
        regions: s.regions.map((r: any) => r.id),
        listing: listing.text,
        overlay: api.showOverlay(s).childElementCount,
        again: api.observe().elements.length === s.elements.length,
      }
    })
    expect(out.ids).toContain('menu_控制台')
    expect(out.ids).toContain('checkbox_online')
    expect(out.ids).toContain('radio_sponsor')
    // Row 1042 is "1042 王小明 42 …": the shortest word unique to the row names it.
    expect(out.target).toBe('btn_删除_near_42')
    expect(out.regions).toContain('dialog_确认操作')
    expect(out.listing).toContain('## dialog_确认操作')
    expect(listedIds(out.listing)).toContain(out.target)
    // The overlay draws one box per element and is itself never scanned.
    expect(out.overlay).toBe(out.ids.length)
    expect(out.again).toBe(true)
    await page.close()
  })
})
