/**
 * Locator engines compared on the exact list of matched elements (Playwright's selector-test
 * style, STYLE.md): each element carries a `data-m` mark and a query returns the marks it found,
 * in order. Real Chromium, because roles, names, visibility and shadow roots are what matter.
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startHarness, type Harness } from './harness'

let h: Harness
let page: Page

const kHtml = `
<main>
  <button data-m="b1">Submit</button>
  <button data-m="b2" aria-label="Close dialog">×</button>
  <input data-m="i1" type="submit" value="Send now">
  <div role="button" data-m="b3" aria-pressed="true">Bold</div>
  <a data-m="a1" href="#x">Read more</a>
  <a data-m="a2">Not a link</a>
  <label for="u" data-m="l1">User</label><input id="u" data-m="t1">
  <input data-m="t2" placeholder="Search here" type="search">
  <input data-m="c1" type="checkbox" checked aria-label="Remember me">
  <input data-m="c2" type="checkbox" aria-label="Newsletter">
  <div role="tab" aria-selected="true" data-m="tab1">One</div><div role="tab" aria-selected="false" data-m="tab2">Two</div>
  <button data-m="x1" aria-expanded="false">Menu</button>
  <button data-m="d1" disabled>Gone</button>
  <p data-m="p1">Hello <b data-m="p1b">world</b> again</p>
  <p data-m="p2">删除</p>
  <span data-testid="save" data-m="s1">s</span><span data-test-id="save" data-m="s2">s</span><span data-test="other" data-m="s3">s</span><span data-qa="save" data-m="s4">s</span>
  <div id="host" data-m="host"></div>
</main>
<script>
  const root = document.getElementById('host').attachShadow({ mode: 'open' })
  root.innerHTML = '<button data-m="sb1">Submit</button><span data-testid="save" data-m="ss1">in shadow</span><p data-m="sp">world peace</p>'
</script>`

beforeAll(async () => {
  h = await startHarness()
  h.server.page(
    '/locators.html',
    `<!doctype html><html><body>${kHtml}<script>window.__state = {}</script></body></html>`,
  )
  page = await h.open('/locators.html')
})
afterAll(() => h?.close())

function marks(selector: string): Promise<string[]> {
  return page.evaluate(
    (s) => (window as any).__avaExec.locators.queryAll(s).map((e: Element) => e.getAttribute('data-m')),
    selector,
  )
}

function syntaxError(selector: string): Promise<string> {
  return page.evaluate((s) => {
    try {
      ;(window as any).__avaExec.locators.queryAll(s)
      return 'no error'
    } catch (e) {
      return `${(e as Error).name}: ${(e as Error).message}`
    }
  }, selector)
}

describe('css', () => {
  test('plain and prefixed CSS, piercing open shadow roots', async () => {
    expect(await marks('css:button')).toEqual(['b1', 'b2', 'x1', 'd1', 'sb1'])
    expect(await marks('p')).toEqual(['p1', 'p2', 'sp'])
    // The core grammar refuses what it can read as wrong; the browser's CSS parser the rest.
    expect(await syntaxError('css:button[')).toMatch(
      /SelectorSyntaxError: Invalid selector "css:button\[": missing "\]"/,
    )
    expect(await syntaxError('css:button!')).toMatch(
      /SelectorSyntaxError: Invalid selector "css:button!": "button!" is not a valid CSS selector/,
    )
  })
})

describe('xpath', () => {
  test('xpath: prefix and a bare // both read as XPath', async () => {
    expect(await marks('xpath://a[@href]')).toEqual(['a1'])
    expect(await marks('//p')).toEqual(['p1', 'p2'])
    expect(await syntaxError('xpath:button')).toMatch(/starts with "\/"/)
  })
})

describe('role', () => {
  test('implicit and explicit roles', async () => {
    expect(await marks('role:button')).toEqual(['b1', 'b2', 'i1', 'b3', 'x1', 'd1', 'sb1'])
    expect(await marks('role:link')).toEqual(['a1'])
    expect(await marks('role:textbox')).toEqual(['t1'])
    expect(await marks('role:searchbox')).toEqual(['t2'])
  })

  test('names: exact by default, substring and case-insensitive with i', async () => {
    expect(await marks('role:button[name="Submit"]')).toEqual(['b1', 'sb1'])
    expect(await marks('role:button[name="submit"]')).toEqual([])
    expect(await marks('role:button[name="close" i]')).toEqual(['b2'])
    expect(await marks('role:button[name="Send now"]')).toEqual(['i1'])
    expect(await marks("role:textbox[name='User']")).toEqual(['t1'])
    expect(await marks('role:searchbox[name="Search here"]')).toEqual(['t2'])
  })

  test('state filters', async () => {
    expect(await marks('role:checkbox[checked]')).toEqual(['c1'])
    expect(await marks('role:checkbox[checked=false]')).toEqual(['c2'])
    expect(await marks('role:tab[selected]')).toEqual(['tab1'])
    expect(await marks('role:button[expanded=false]')).toEqual(['x1'])
    expect(await marks('role:button[disabled]')).toEqual(['d1'])
    expect(await marks('role:button[pressed]')).toEqual(['b3'])
    expect(await marks('role:checkbox[name="Newsletter"][checked=false]')).toEqual(['c2'])
    expect(await syntaxError('role:button[colour=red]')).toMatch(/unknown role filter \[colour\]/)
  })
})

describe('text', () => {
  test('substring, case-insensitive; the smallest element holding the text', async () => {
    expect(await marks('text:world')).toEqual(['p1b', 'sp'])
    expect(await marks('text:hello world')).toEqual(['p1'])
    expect(await marks('text:send now')).toEqual(['i1'])
  })

  test('quoted text is the whole text, case-sensitive', async () => {
    expect(await marks('text:"删除"')).toEqual(['p2'])
    expect(await marks('text:"world"')).toEqual(['p1b'])
    expect(await marks('text:"World"')).toEqual([])
    expect(await marks('text:"Hello world again"')).toEqual(['p1'])
  })
})

describe('testid', () => {
  test('data-testid, data-test-id, data-test and data-qa, shadow roots included', async () => {
    expect(await marks('testid:save')).toEqual(['s1', 's2', 's4', 'ss1'])
    expect(await marks('testid:other')).toEqual(['s3'])
    expect(await syntaxError('testid:a b')).toMatch(/a test id is letters/)
  })
})

describe('semantic index', () => {
  // The semantic rung keeps what it read of each element until the page mutates: every answer
  // must still be the one a fresh read would give, including changes made in the same task.
  const best = (p: Page, description: string): Promise<string | null> =>
    p.evaluate((d) => (window as any).__avaExec.semanticMatch(d).best?.getAttribute('data-m') ?? null, description)

  test('sees text, attribute, new element, removal and new shadow root changes at once', async () => {
    const p = await h.open('/locators.html')
    await p.evaluate(() => {
      document.querySelector('main')!.insertAdjacentHTML('beforeend', '<button data-m="k1">Archive</button>')
    })
    expect(await best(p, 'Archive button')).toBe('k1')
    // Same task: no mutation callback has run between the change and the lookup.
    expect(
      await p.evaluate(() => {
        const x = (window as any).__avaExec
        document.querySelector('[data-m=k1]')!.textContent = 'Restore'
        return [
          x.semanticMatch('Archive button').best?.getAttribute('data-m') ?? null,
          x.semanticMatch('Restore button').best?.getAttribute('data-m') ?? null,
        ]
      }),
    ).toEqual([null, 'k1'])
    await p.evaluate(() => document.querySelector('[data-m=k1]')!.setAttribute('aria-label', 'Unarchive'))
    expect(await best(p, 'Unarchive button')).toBe('k1')
    await p.evaluate(() =>
      document
        .querySelector('main')!
        .insertAdjacentHTML('beforeend', '<label>Discount code <input data-m="k3"></label>'),
    )
    expect(await best(p, 'discount code input')).toBe('k3')
    await p.evaluate(() => document.querySelector('[data-m=k1]')!.remove())
    expect(await best(p, 'Unarchive button')).toBeNull()
    // A shadow root attached to an element already in the page mutates nothing the observer sees.
    expect(
      await p.evaluate(() => {
        const x = (window as any).__avaExec
        const before = x.semanticMatch('Export report button').best?.getAttribute('data-m') ?? null
        const root = document.querySelector('[data-m=p2]')!.attachShadow({ mode: 'open' })
        root.innerHTML = '<button data-m="sh2">Export report</button>'
        return [before, x.semanticMatch('Export report button').best?.getAttribute('data-m') ?? null]
      }),
    ).toEqual([null, 'sh2'])
  })
})
