import type { ExecOutcome } from '../../core/exec'
import type { ActionType, Instruction } from '../../core/instruction/schema'
import { extractKeywords, missingKeywords } from '../../core/verify'
import { click, fill, fillEditable, hover, press } from './events'
import { isVisible, locate } from './locate'
import { nextPaint, waitFor } from './wait'

/**
 * The DOM actions, one descriptor each (STYLE.md: descriptors in one registry, not a switch).
 * `needsElement` actions get the located element; the others work on the page as a whole.
 */
export interface ActionContext {
  timeoutMs: number
  signal?: AbortSignal
}

type Run = (ins: Instruction, ctx: ActionContext) => Promise<ExecOutcome>

export interface ActionDescriptor {
  name: ActionType
  run: Run
}

const kVerifyWaitMs = 3_000 // text rendered just after a navigation or a fetch gets this long to appear
const kNavigationGraceMs = 60 // a click that navigates fires beforeunload within this window

const label = (el: Element) => (el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.getAttribute('name') || el.textContent || el.tagName).trim().replace(/\s+/g, ' ').slice(0, 50)

function withElement(fn: (el: Element, ins: Instruction, ctx: ActionContext, rung: string) => Promise<ExecOutcome>): Run {
  return async (ins, ctx) => {
    const found = await locate(ins.params, ctx)
    if ('ok' in found) return found
    const { el, rung } = found
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' })
    return fn(el, ins, ctx, rung)
  }
}

/**
 * Runs `act` and reports whether it started a navigation away from this document. We answer as
 * soon as the page starts unloading, so the answer leaves before the document is gone.
 */
async function watchNavigation(act: () => void): Promise<boolean> {
  let navigating = false
  let wake: () => void = () => undefined
  const onUnload = () => {
    navigating = true
    wake()
  }
  addEventListener('beforeunload', onUnload)
  addEventListener('pagehide', onUnload)
  try {
    act()
    if (!navigating) await new Promise<void>((r) => ((wake = r), setTimeout(r, kNavigationGraceMs)))
  } finally {
    removeEventListener('beforeunload', onUnload)
    removeEventListener('pagehide', onUnload)
  }
  return navigating
}

const actions: ActionDescriptor[] = [
  {
    name: 'navigate',
    async run(ins) {
      const url = new URL(ins.params.url!, location.href)
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, code: 'INVALID', message: `Ava only opens http(s) pages, not ${url.protocol}` }
      location.assign(url.href)
      return { ok: true, detail: `Opening ${url.href}`, navigating: true }
    },
  },
  {
    name: 'click',
    run: withElement(async (el, _ins, _ctx, rung) => {
      const visible = isVisible(el)
      // Attached but not visible: the forced DOM operation of seed 001 §2.3, reported as such.
      const navigating = await watchNavigation(() => (visible ? click(el) : (el as HTMLElement).click()))
      if (!navigating) await nextPaint()
      return { ok: true, detail: `Clicked "${label(el)}"${visible ? '' : ' (forced: it was not visible)'}`, rung, navigating, forced: !visible }
    }),
  },
  {
    name: 'input',
    run: withElement(async (el, ins, _ctx, rung) => {
      const value = ins.params.value ?? ''
      if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
        if (el.disabled || el.readOnly) return { ok: false, code: 'NOT_ACTIONABLE', message: `"${label(el)}" is ${el.disabled ? 'disabled' : 'read-only'}.` }
        fill(el, value)
        await nextPaint()
        if (el.value !== value) return { ok: false, code: 'NOT_ACTIONABLE', message: `Typed into "${label(el)}" but the page changed the value to "${el.value}".` }
      } else if (el instanceof HTMLElement && el.isContentEditable) {
        fillEditable(el, value)
      } else {
        return { ok: false, code: 'NOT_ACTIONABLE', message: `"${label(el)}" is not a text field.` }
      }
      const shown = el instanceof HTMLInputElement && el.type === 'password' ? '•'.repeat(Math.min(value.length, 8)) : value
      return { ok: true, detail: `Typed "${shown}" into "${label(el)}"`, rung }
    }),
  },
  {
    name: 'select',
    run: withElement(async (el, ins, _ctx, rung) => {
      const want = (ins.params.value ?? '').trim()
      if (!(el instanceof HTMLSelectElement)) return { ok: false, code: 'NOT_ACTIONABLE', message: `"${label(el)}" is not a native select; custom dropdowns come with the full executor.` }
      const option = [...el.options].find((o) => o.value === want || o.text.trim() === want) ?? [...el.options].find((o) => o.text.trim().toLowerCase().includes(want.toLowerCase()))
      if (!option) return { ok: false, code: 'ELEMENT_NOT_FOUND', message: `"${label(el)}" has no option "${want}". Options: ${[...el.options].map((o) => o.text.trim()).join(', ')}` }
      el.focus()
      el.value = option.value
      el.dispatchEvent(new Event('input', { bubbles: true }))
      el.dispatchEvent(new Event('change', { bubbles: true }))
      return { ok: true, detail: `Selected "${option.text.trim()}" in "${label(el)}"`, rung }
    }),
  },
  {
    name: 'hover',
    run: withElement(async (el, _ins, _ctx, rung) => {
      hover(el)
      await nextPaint()
      return { ok: true, detail: `Hovered "${label(el)}"`, rung }
    }),
  },
  {
    name: 'press',
    async run(ins) {
      const target = document.activeElement && document.activeElement !== document.body ? document.activeElement : document.body
      const navigating = await watchNavigation(() => press(target, ins.params.key!))
      return { ok: true, detail: `Pressed ${ins.params.key}`, navigating }
    },
  },
  {
    name: 'scroll',
    async run(ins, ctx) {
      const d = ins.params.direction
      if (!d) {
        const found = await locate(ins.params, ctx)
        if ('ok' in found) return found
        found.el.scrollIntoView({ block: 'center', behavior: 'instant' })
        return { ok: true, detail: `Scrolled to "${label(found.el)}"`, rung: found.rung }
      }
      const h = innerHeight * 0.8
      if (d === 'top') scrollTo({ top: 0, behavior: 'instant' })
      else if (d === 'bottom') scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' })
      else scrollBy({ top: d === 'down' ? h : -h, behavior: 'instant' })
      return { ok: true, detail: `Scrolled ${d}` }
    },
  },
  {
    name: 'wait',
    async run(ins, ctx) {
      const sel = ins.params.selector!
      try {
        document.querySelector(sel)
      } catch {
        return { ok: false, code: 'INVALID', message: `"${sel}" is not a valid CSS selector.` }
      }
      const el = await waitFor(() => {
        const e = document.querySelector(sel)
        return e && isVisible(e) ? e : null
      }, ctx.timeoutMs, ctx.signal)
      return el ? { ok: true, detail: `"${sel}" appeared` } : { ok: false, code: 'TIMEOUT', message: `"${sel}" did not appear within ${ctx.timeoutMs / 1000} s.` }
    },
  },
  {
    name: 'verify',
    async run(ins, ctx) {
      const keywords = extractKeywords(ins.params.assertion!)
      const text = () => document.body?.innerText ?? ''
      const ok = await waitFor(() => missingKeywords(keywords, text()).length === 0 || null, Math.min(kVerifyWaitMs, ctx.timeoutMs), ctx.signal)
      if (ok) return { ok: true, detail: `Found ${keywords.map((k) => `"${k}"`).join(', ')} on the page` }
      const missing = missingKeywords(keywords, text())
      return { ok: false, code: 'VERIFY_FAILED', message: `Not on the page: ${missing.map((k) => `"${k}"`).join(', ')}.` }
    },
  },
]

export const actionRegistry: ReadonlyMap<ActionType, ActionDescriptor> = new Map(actions.map((a) => [a.name, a]))
