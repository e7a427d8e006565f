// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { navigationOf } from '../../src/dom/offsite'
import { createReceiver } from '../../src/dom/page/receiver'
import type { PageCommand } from '../../src/core/page/command'

/** Where a step would take the page (src/dom/offsite.ts), on fixture markup. */

const kHere = 'https://shop.example/account/'

beforeEach(() => {
  ;(window as unknown as { happyDOM: { setURL(u: string): void } }).happyDOM.setURL(kHere)
  document.body.innerHTML = ''
})

const mount = (html: string) => void (document.body.innerHTML = html)
const el = (sel: string) => document.querySelector(sel)!

describe('links', () => {
  it('follows a link or an area in this tab or another, resolved against the page', () => {
    mount(`<a id=a href="https://evil.example/x?q=1"><span id=inner>Go</span></a>
      <a id=rel href="../orders">Orders</a>
      <a id=blank href="//evil.example/new" target="_blank">New</a>
      <a id=named href="https://evil.example/" target="payments">Named</a>
      <a id=top href="https://evil.example/" target="_top">Top</a>
      <map name=m><area id=area href="https://evil.example/area"></map>`)
    expect(navigationOf(el('#inner'), 'click')).toEqual({ url: 'https://evil.example/x?q=1', newTab: false })
    expect(navigationOf(el('#rel'), 'dblclick')).toEqual({ url: 'https://shop.example/orders', newTab: false })
    expect(navigationOf(el('#blank'), 'click')).toEqual({ url: 'https://evil.example/new', newTab: true })
    expect(navigationOf(el('#named'), 'click')?.newTab).toBe(true)
    expect(navigationOf(el('#top'), 'click')?.newTab).toBe(false)
    expect(navigationOf(el('#area'), 'click')?.url).toBe('https://evil.example/area')
    // Enter on a focused link follows it; Space and hover do not.
    expect(navigationOf(el('#a'), 'press', 'Enter')?.url).toBe('https://evil.example/x?q=1')
    expect(navigationOf(el('#a'), 'press', ' ')).toBeNull()
    expect(navigationOf(el('#a'), 'hover')).toBeNull()
  })

  it('finds the link around any element nested in it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.constantFrom('span', 'b', 'div', 'img', 'svg'), (depth, tag) => {
        mount(
          `<a href="https://evil.example/deep">${'<span>'.repeat(depth)}<${tag} id=t></${tag}>${'</span>'.repeat(depth)}</a>`,
        )
        expect(navigationOf(el('#t'), 'click')?.url).toBe('https://evil.example/deep')
      }),
      { numRuns: 50, interruptAfterTimeLimit: 10_000 },
    )
  })
})

describe('forms', () => {
  it('sends a form by its button with the button’s formaction, method and target over the form’s', () => {
    mount(`<form id=f action="https://evil.example/collect" method="get">
        <input id=field name=q><textarea id=ta></textarea><select id=sel><option>a</option></select>
        <button id=send>Search</button>
        <button id=plain type=button>Plain</button>
        <button id=reset type=reset>Reset</button>
        <input id=img type=image src=x.png>
        <button id=post formaction="/save" formmethod="POST" formtarget="_blank"><b id=bold>Save</b></button>
        <button id=dialog formmethod=dialog>Close</button>
      </form>
      <button id=outside form=f>Outside</button>`)
    expect(navigationOf(el('#send'), 'click')).toEqual({
      url: 'https://evil.example/collect',
      newTab: false,
      form: { method: 'get' },
    })
    expect(navigationOf(el('#bold'), 'click')).toEqual({
      url: 'https://shop.example/save',
      newTab: true,
      form: { method: 'post' },
    })
    expect(navigationOf(el('#img'), 'click')?.url).toBe('https://evil.example/collect')
    expect(navigationOf(el('#outside'), 'click')?.url).toBe('https://evil.example/collect')
    expect(navigationOf(el('#plain'), 'click')).toBeNull()
    expect(navigationOf(el('#reset'), 'click')).toBeNull()
    expect(navigationOf(el('#dialog'), 'click')).toBeNull()
    expect(navigationOf(el('#send'), 'press', 'Space')?.url).toBe('https://evil.example/collect')
    // The submit action sends the form itself, whatever its buttons say.
    expect(navigationOf(el('#field'), 'submit')).toEqual({
      url: 'https://evil.example/collect',
      newTab: false,
      form: { method: 'get' },
    })
    expect(navigationOf(el('#f'), 'submit')?.url).toBe('https://evil.example/collect')
  })

  it('reads Enter in a field as implicit submission through the default button', () => {
    mount(`<form action="https://evil.example/q"><input id=field name=q>
        <button id=first formaction="https://other.example/first">Go</button><button>Second</button>
        <textarea id=ta></textarea><select id=sel></select></form>
      <form action="/local"><input id=lone></form>
      <input id=formless>`)
    expect(navigationOf(el('#field'), 'press', 'Enter')).toEqual({
      url: 'https://other.example/first',
      newTab: false,
      form: { method: 'get' },
    })
    expect(navigationOf(el('#field'), 'press', 'Control+Enter')?.url).toBe('https://other.example/first')
    expect(navigationOf(el('#lone'), 'press', 'Enter')?.url).toBe('https://shop.example/local')
    expect(navigationOf(el('#ta'), 'press', 'Enter')).toBeNull()
    expect(navigationOf(el('#sel'), 'press', 'Enter')).toBeNull()
    expect(navigationOf(el('#formless'), 'press', 'Enter')).toBeNull()
    expect(navigationOf(el('#field'), 'press', 'a')).toBeNull()
  })

  it('treats a form with no action as sent to the page itself', () => {
    mount(`<form><input id=f><button id=b>Go</button></form>`)
    expect(navigationOf(el('#b'), 'click')?.url).toBe(kHere)
  })
})

describe('the receiver asks before a step leaves the site and refuses a denied one', () => {
  const passedGate = (out: { ok: boolean; code?: string }) =>
    out.ok || (out.code !== 'BLOCKED' && out.code !== 'NEEDS_CONFIRMATION')
  const press = (extra: Partial<PageCommand<'act'>> = {}): PageCommand<'act'> => ({
    kind: 'act',
    step: { action: 'press', key: 'Enter', target: { focused: true } },
    timeoutMs: 10_000,
    ...extra,
  })

  it('Enter in a field of a form bound for another site', async () => {
    mount(`<form action="https://evil.example/collect"><input id=q name=q value="page data"></form>`)
    ;(el('#q') as HTMLInputElement).focus()
    const receive = createReceiver()
    let sent = 0
    el('form').addEventListener('submit', (e) => (e.preventDefault(), sent++))

    const asked = await receive(press({ confirm: ['cross_site'] }))
    expect(asked).toMatchObject({ ok: false, code: 'NEEDS_CONFIRMATION', offsite: 'evil.example' })
    expect(!asked.ok && asked.message).toMatch(/another site: evil\.example .*fields/)

    // The yes binds to the element asked about; a denied site is refused even then.
    const denied = await receive(
      press({
        confirm: ['cross_site'],
        confirmed: true,
        bound: !asked.ok ? asked.handle : undefined,
        sites: { allow: [], deny: ['evil.example'] },
      }),
    )
    expect(denied).toMatchObject({ ok: false, code: 'BLOCKED' })
    expect(!denied.ok && denied.message).toContain('evil.example')
    expect(sent).toBe(0)

    // Not asked about other sites, and not denied: the key goes on to the executor (which, with
    // no layout in happy-dom, finds the field invisible: the real press is the e2e tests' part).
    expect(passedGate(await receive(press({ confirm: [], sites: { allow: [], deny: [] } })))).toBe(true)
  })

  it('a same-site form is neither asked about nor refused', async () => {
    mount(`<form action="/search"><input id=q name=q></form>`)
    ;(el('#q') as HTMLInputElement).focus()
    el('form').addEventListener('submit', (e) => e.preventDefault())
    expect(
      passedGate(
        await createReceiver()(press({ confirm: ['cross_site'], sites: { allow: [], deny: ['evil.example'] } })),
      ),
    ).toBe(true)
  })
})
