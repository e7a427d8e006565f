import type { Candidate, ExecOutcome, ExecErrorCode } from '../../core/exec'
import type { InstructionParams } from '../../core/instruction/schema'
import { waitFor } from './wait'

/**
 * Finds the element an instruction means, in order: the scanned element id, the explicit CSS
 * selector, then the semantic description matched against the page's interactive elements.
 * A description that fits two elements equally is AMBIGUOUS — never a guess.
 */
export type Located = { el: Element; rung: 'target_id' | 'selector' | 'semantic' }
export type LocateFailure = Extract<ExecOutcome, { ok: false }>

const kInteractive =
  'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch], [role=combobox], [role=textbox], [contenteditable=""], [contenteditable=true], [tabindex]:not([tabindex="-1"]), [onclick]'

const kAmbiguityMargin = 0.15 // two scores closer than this (relative) are too close to call
const kMinScore = 0.34 // below this a "match" is mostly noise words

const roleWords: Record<string, string[]> = {
  button: ['button', 'btn', '按钮'],
  link: ['link', '链接'],
  textbox: ['input', 'field', 'box', 'textbox', 'text', '输入框', '输入'],
  checkbox: ['checkbox', 'check', '复选框'],
  combobox: ['select', 'dropdown', 'combobox', '下拉'],
}
const stopWords = new Set(['the', 'a', 'an', 'on', 'in', 'of', 'to', 'for', 'with', 'and', 'or', 'element', 'field', 'input', 'button', 'link', 'box', 'text', 'area', 'page', 'form'])

export function isVisible(el: Element): boolean {
  if (!el.isConnected) return false
  const r = el.getBoundingClientRect()
  if (r.width === 0 && r.height === 0) return false
  return typeof el.checkVisibility === 'function' ? el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) : true
}

function roleOf(el: Element): string {
  const explicit = el.getAttribute('role')
  if (explicit) return explicit
  const tag = el.tagName.toLowerCase()
  if (tag === 'a') return 'link'
  if (tag === 'button' || (tag === 'input' && /^(button|submit|reset|image)$/i.test((el as HTMLInputElement).type))) return 'button'
  if (tag === 'select') return 'combobox'
  if (tag === 'input' && /^(checkbox|radio)$/i.test((el as HTMLInputElement).type)) return 'checkbox'
  if (tag === 'input' || tag === 'textarea' || (el as HTMLElement).isContentEditable) return 'textbox'
  return 'generic'
}

/** The words a person would use for the element: its label, placeholder, name and text. */
export function describe(el: Element): string {
  const parts: string[] = []
  const attr = (n: string) => el.getAttribute(n)
  for (const n of ['aria-label', 'placeholder', 'title', 'alt', 'name', 'id', 'data-testid']) {
    const v = attr(n)
    if (v) parts.push(v)
  }
  const labelledby = attr('aria-labelledby')
  if (labelledby) for (const id of labelledby.split(/\s+/)) parts.push(document.getElementById(id)?.textContent ?? '')
  const labels = (el as HTMLInputElement).labels
  if (labels) for (const l of labels) parts.push(l.textContent ?? '')
  if (el instanceof HTMLInputElement && /^(button|submit|reset)$/i.test(el.type)) parts.push(el.value)
  const text = (el.textContent ?? '').trim()
  if (text && text.length < 200) parts.push(text)
  return parts.join(' ').replace(/\s+/g, ' ').trim()
}

/** Words of a description: lower-cased latin words and single CJK characters. */
export function words(s: string): string[] {
  const out: string[] = []
  for (const m of s.toLowerCase().matchAll(/[\p{Script=Han}]|[\p{L}\p{N}]+/gu)) out.push(m[0])
  return out
}

export function score(locator: string, el: Element): number {
  const want = words(locator)
  if (!want.length) return 0
  const haveWords = new Set(words(describe(el)))
  const role = roleOf(el)
  let hits = 0
  let total = 0
  for (const w of want) {
    const isRoleWord = roleWords[role]?.includes(w)
    if (stopWords.has(w) && !isRoleWord) continue
    total++
    if (haveWords.has(w) || isRoleWord) hits++
  }
  return total ? hits / total : 0
}

function fail(code: ExecErrorCode, message: string, extra: Partial<LocateFailure> = {}): LocateFailure {
  return { ok: false, code, message, ...extra }
}

export async function locate(params: InstructionParams, opts: { timeoutMs: number; signal?: AbortSignal; wantVisible?: boolean }): Promise<Located | LocateFailure> {
  if (params.target_id) {
    const el = document.querySelector(`[data-agent-id="${CSS.escape(params.target_id)}"]`)
    if (el) return { el, rung: 'target_id' }
    if (!params.fallback_selector && !params.semantic_locator) {
      return fail('ELEMENT_STALE', `The element ${params.target_id} is no longer on the page.`, { suggestion: 'Rescan the page and plan again.' })
    }
  }
  if (params.fallback_selector) {
    let valid = true
    try {
      document.querySelector(params.fallback_selector)
    } catch {
      valid = false
    }
    if (valid) {
      // SPA pages mount late: wait for the selector to be attached (seed 001 §2.3).
      const budget = params.semantic_locator ? Math.min(opts.timeoutMs, 2_000) : opts.timeoutMs
      const el = await waitFor(() => document.querySelector(params.fallback_selector!), budget, opts.signal)
      if (el) return { el, rung: 'selector' }
    }
  }
  if (params.semantic_locator) {
    const found = await waitFor(() => {
      const r = semanticMatch(params.semantic_locator!)
      return r.ok || r.code === 'AMBIGUOUS' ? r : null
    }, opts.timeoutMs, opts.signal)
    if (found) return found.ok ? { el: found.el, rung: 'semantic' } : found
    const last = semanticMatch(params.semantic_locator)
    if (!last.ok) return last
    return { el: last.el, rung: 'semantic' }
  }
  const what = params.fallback_selector ?? params.target_id ?? '(nothing)'
  return fail('ELEMENT_NOT_FOUND', `No element matches ${what}.`, { suggestion: 'Check the page is the one expected, or describe the element differently.' })
}

type Semantic = ({ ok: true; el: Element } | LocateFailure) & { candidates?: Candidate[] }

export function semanticMatch(locator: string): Semantic {
  const scored: { el: Element; s: number }[] = []
  for (const el of document.querySelectorAll(kInteractive)) {
    if (el.closest('[data-ava-ui]') || !isVisible(el)) continue
    const s = score(locator, el)
    if (s >= kMinScore) scored.push({ el, s })
  }
  scored.sort((a, b) => b.s - a.s)
  const candidates = scored.slice(0, 5).map(({ el, s }) => ({ id: el.getAttribute('data-agent-id') ?? cssPath(el), label: describe(el).slice(0, 50), score: Math.round(s * 100) / 100 }))
  if (!scored.length) return fail('ELEMENT_NOT_FOUND', `Nothing on the page looks like "${locator}".`, { candidates, suggestion: 'Describe the element by its visible label.' })
  if (scored.length > 1 && scored[0].s - scored[1].s < kAmbiguityMargin * scored[0].s && !scored[0].el.contains(scored[1].el) && !scored[1].el.contains(scored[0].el)) {
    return fail('AMBIGUOUS', `"${locator}" fits ${scored.filter((x) => scored[0].s - x.s < kAmbiguityMargin * scored[0].s).length} elements equally well.`, { candidates, suggestion: 'Name the element more precisely, or pick one of the candidates.' })
  }
  return { ok: true, el: scored[0].el, candidates }
}

/** A short CSS path, only for showing candidates that have no agent id yet. */
function cssPath(el: Element): string {
  if (el.id) return `#${CSS.escape(el.id)}`
  const tag = el.tagName.toLowerCase()
  const parent = el.parentElement
  if (!parent) return tag
  const same = [...parent.children].filter((c) => c.tagName === el.tagName)
  return `${parent === document.body ? 'body' : cssPath(parent)} > ${tag}${same.length > 1 ? `:nth-of-type(${same.indexOf(el) + 1})` : ''}`
}
