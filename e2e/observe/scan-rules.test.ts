// What the scan skips on the strength of the page's stylesheets (cursor-rules.ts): the overflow of
// containers nothing can clip, and checkVisibility() where nothing can hide. Each page is scanned
// twice, once as is and once with enough extra rules that every style is read and every
// visibility asked; both scans must find the same elements, sections and lazy regions.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { build } from 'esbuild'
import { resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { observeBundle } from './bundle'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

/** Rules that match nothing but push the cursor list past its cap (cursor-rules.ts). */
const everyStyleRead = Array.from({ length: 40 }, (_, i) => `.never-${i}{cursor:default}`).join('')

interface Scan {
  elements: Array<{ id: string; bounds: unknown; inViewport: boolean }>
  content: unknown[]
  lazy: unknown[]
}

async function scanOf(html: string, script?: string): Promise<{ page: Page; scan: Scan }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.setContent(html)
  if (script) await page.evaluate(script)
  await page.addScriptTag({ content: await observeBundle() })
  const scan = await page.evaluate(() => {
    const s = (window as any).__avaObserve.observe()
    return {
      elements: s.elements.map((e: any) => ({ id: e.id, bounds: e.bounds, inViewport: e.inViewport })),
      content: s.content,
      lazy: s.lazyRegions,
    }
  })
  return { page, scan }
}

/** Scans `body` under `css` as is and with every style read; returns the first, after checking both agree. */
async function scanBoth(css: string, body: string, script?: string): Promise<Scan> {
  const fast = await scanOf(`<style>${css}</style>${body}`, script)
  const full = await scanOf(`<style>${css}${everyStyleRead}</style>${body}`, script)
  expect(fast.scan).toEqual(full.scan)
  await fast.page.close()
  await full.page.close()
  return fast.scan
}

const ids = (s: Scan) => s.elements.map((e) => e.id)

describe('overflow read only where a rule, inline style or the UA may set it', () => {
  test('containers clipped by class, media rule, logical and inline overflow hide what lies outside', async () => {
    const css =
      '.shut{height:0;overflow:hidden}@media (min-width:1px){.strip{width:40px;overflow-x:clip;white-space:nowrap}}.box{height:20px}'
    const body =
      '<div class="shut"><div><button>In shut panel</button></div></div>' +
      '<div class="strip"><span style="display:inline-block;width:60px"></span><button>Past the strip</button></div>' +
      '<div style="height:0;overflow:hidden"><button>In inline-clipped</button></div>' +
      '<div class="box"><button>Box</button><div style="margin-top:40px"><button>Below the box</button></div></div>'
    const s = await scanBoth(css, body)
    expect(ids(s)).toEqual(['btn_box', 'btn_below_the_box'])
  })

  test('a shadow host clips through :host', async () => {
    const s = await scanBoth(
      '',
      '<div id="host"><button>Slotted</button></div><button>Outside</button>',
      `(() => { const r = document.getElementById('host').attachShadow({ mode: 'open' }); r.innerHTML = '<style>:host{display:block;height:0;overflow:hidden}</style><slot></slot><button>Inside</button>' })()`,
    )
    expect(ids(s)).toEqual(['btn_outside'])
  })
})

describe("a control's style read only when its cursor matters", () => {
  test('links, labels and controls inside clickable containers, shown and hidden', async () => {
    const css = '.go{cursor:pointer}.faded{opacity:0}.plain{cursor:auto}'
    const body =
      '<div class="go"><a href="/a">Link in clickable</a></div>' +
      '<div class="go"><label>Label <input type="checkbox"></label><span>after label</span></div>' +
      '<div class="go"><a href="/b" class="faded"><span class="go">Under a faded link</span></a></div>' +
      '<div class="go"><button class="faded"><span>Under a faded button</span></button></div>' +
      '<a><span class="go">Pointer in a bare anchor</span></a><summary class="go">Loose summary</summary>' +
      '<div class="plain"><a href="/c"><b>Bold link</b></a><input type="hidden" class="go"><button>Button</button></div>'
    const s = await scanBoth(css, body)
    // A clickable div around a hidden control is kept: the control can't be clicked instead.
    expect(ids(s)).toEqual([
      'link_link_in_clickable',
      'checkbox_label',
      'btn_under_a_faded_link',
      'btn_under_a_faded_button',
      'btn_pointer_in_a_bare_anchor',
      'btn_loose_summary',
      'link_bold_link',
      'btn_button',
    ])
  })
})

describe('checkVisibility() asked only where something may hide', () => {
  test('opacity, visibility and content-visibility from rules, inline styles and the UA', async () => {
    const css =
      '.faded{opacity:0}.ghost{visibility:hidden}.shown{visibility:visible}.later{content-visibility:auto;contain-intrinsic-size:auto 40px}.thin{display:contents}'
    const body =
      '<p>Intro paragraph text</p>' +
      '<div class="faded"><button>Faded</button><p>Faded text</p></div>' +
      '<div class="ghost"><button>Ghost</button><div class="shown"><button>Shown again</button></div></div>' +
      '<div style="opacity:0"><a href="/x">Inline faded</a></div>' +
      '<details><summary>More</summary><button>In closed details</button><p>Hidden details text</p></details>' +
      '<meter><button>In meter</button></meter>' +
      '<button class="thin">Contents only</button><span onclick="void 0" class="thin">Contents span</span>' +
      '<div style="height:3000px"></div><div class="later"><button>Far and skipped</button></div>'
    const s = await scanBoth(css, body)
    expect(ids(s)).toEqual(['btn_shown_again', 'btn_more'])
    expect(s.lazy).toEqual([expect.objectContaining({ kind: 'content-visibility' })])
  })

  test('the visually-hidden pattern by class, by clip-path and inline', async () => {
    const css = '.sr{position:absolute;clip:rect(0 0 0 0)}.inset{position:absolute;clip-path:inset(50%)}'
    const body =
      '<button class="sr">By class</button><a href="/x" class="inset">By clip path</a>' +
      '<button style="position:fixed;clip:rect(0,0,0,0)">Inline</button><button>Plain</button>'
    const s = await scanBoth(css, body)
    expect(ids(s)).toEqual(['btn_plain'])
  })

  test('an element faded by a script animation is hidden though no rule says so', async () => {
    const s = await scanBoth(
      '',
      '<button id="a">Animated away</button><button>Still</button><p id="t">Animated text</p>',
      `(() => { for (const id of ['a', 't']) document.getElementById(id).animate([{ opacity: 0 }, { opacity: 0 }], { duration: 100000, fill: 'forwards' }) })()`,
    )
    expect(ids(s)).toEqual(['btn_still'])
    expect(JSON.stringify(s.content)).not.toContain('Animated text')
  })
})

describe('the UA tags the rules rely on (cursor-rules.ts)', () => {
  const kTags =
    'a abbr address area article aside audio b bdi bdo blockquote br button canvas caption cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr i iframe img input ins kbd label legend li main map mark menu meter nav object ol optgroup option output p picture pre progress q rp rt ruby s samp search section select slot small source span strong sub summary sup table tbody td textarea tfoot th thead time tr track u ul var video wbr marquee frameset center font big tt nobr applet keygen noembed noframes param math svg'

  test('every tag the UA clips, hides or leaves without a box is in the lists; none is clipped away', async () => {
    const page = await browser.newPage()
    const rules = await build({
      entryPoints: [resolve(import.meta.dirname, '../../src/dom/observe/cursor-rules.ts')],
      bundle: true,
      format: 'iife',
      globalName: '__rules',
      write: false,
    })
    await page.addScriptTag({ content: rules.outputFiles[0].text })
    const wrong = await page.evaluate((tags) => {
      const { kUaStyledTags, kUaMayHideTags, kUaBoxedTags, kUaCursorTags } = (window as any).__rules
      const opts = { opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true }
      const out: string[] = []
      for (const tag of tags.split(' ')) {
        const el = document.createElement(tag)
        const child = el.appendChild(document.createElement('span'))
        child.textContent = 'text'
        document.body.append(el)
        const s = getComputedStyle(el)
        const ua = kUaStyledTags.has(tag)
        if (!['visible', 'auto'].includes(s.overflowX) && !ua) out.push(`${tag} clips (${s.overflowX})`)
        if (s.display === 'none' && !ua) out.push(`${tag} is display:none`)
        if (s.cursor !== 'auto' && !ua) out.push(`${tag} sets cursor ${s.cursor}`)
        if (s.clip !== 'auto' || s.clipPath !== 'none') out.push(`${tag} is clipped`)
        if (kUaCursorTags.has(tag) && ['none', 'contents'].includes(s.display))
          out.push(`${tag} gets display ${s.display}, not only a cursor`)
        if (!child.checkVisibility(opts) && !kUaMayHideTags.has(tag) && s.display !== 'none')
          out.push(`${tag} hides its children`)
        if (!el.checkVisibility(opts) && s.display !== 'none' && ua && kUaBoxedTags.has(tag))
          out.push(`${tag} has no box`)
        if (!el.checkVisibility(opts) && s.display !== 'none' && !ua) out.push(`${tag} has no box but is not UA-styled`)
      }
      const hidden = document.body.appendChild(document.createElement('input'))
      hidden.type = 'hidden'
      if (getComputedStyle(hidden).display !== 'none') out.push('a hidden input is displayed')
      return out
    }, kTags)
    expect(wrong).toEqual([])
    await page.close()
  })
})
