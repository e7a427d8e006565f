import type { ExecFailure } from '../core/exec'
import { deepContains, deepElementFromPoint } from './locators/roots'
import { formCarriesSecret } from './secret-fields'
import type { StepNavigation } from './offsite'

/**
 * Where a saved secret may go in a page (docs/security.md, "Secrets are bound to their sites"),
 * beside the origin check the receiver already makes. A password manager fills only a field the
 * person could see and use: a page that draws a 1×1 transparent password field, or one at
 * `left: -9999px`, and reports what lands in it, gets nothing. And a form on the bound site whose
 * action posts elsewhere carries the secret there: it asks, naming the secret's site of arrival.
 *
 * Both are plain functions of (element, step) → refusal | null, so the one step gate calls them
 * for whatever wrote the step.
 */

/** Smaller than this (CSS px) a field cannot be read or clicked by a person: a 1×1 trap, not a field. */
const kMinFieldWidth = 16
const kMinFieldHeight = 8
/** Below this opacity along its ancestors a field is not seen (Chromium hit-tests opacity-0 layers). */
const kMinOpacity = 0.2

function refused(why: string): ExecFailure {
  return {
    ok: false,
    code: 'BLOCKED',
    message: `Ava types a saved secret only into a field you can see and use; this one is ${why}.`,
  }
}

/** The product of the opacities of `el` and its ancestors (through shadow hosts). */
function opacityOf(el: Element): number {
  let o = 1
  for (
    let n: Element | null = el;
    n;
    n = n.parentElement ?? ((n.getRootNode() as ShadowRoot).host as Element | undefined) ?? null
  ) {
    const v = Number.parseFloat(getComputedStyle(n).opacity)
    if (Number.isFinite(v)) o *= v
    if (o < kMinOpacity) break
  }
  return o
}

/**
 * Why a secret must not go into `el`, or null when a person could see and use it: connected,
 * enabled and editable, rendered and visible, not transparent, big enough to read, inside the
 * page's scrollable area, and the topmost element at its centre (not covered).
 */
export function secretFieldRefusal(el: Element): ExecFailure | null {
  if (!el.isConnected) return refused('no longer in the page')
  const input = el as HTMLInputElement
  if (input.disabled || input.readOnly) return refused('disabled or read-only')
  if (el.localName === 'input' && input.type === 'hidden') return refused('hidden')
  const style = getComputedStyle(el)
  if (
    style.visibility === 'hidden' ||
    style.visibility === 'collapse' ||
    style.display === 'none' ||
    style.contentVisibility === 'hidden'
  )
    return refused('hidden')
  if (opacityOf(el) < kMinOpacity) return refused('transparent')
  // Scrolled into view first: a field below the fold is fine, the hit test needs it on screen.
  ;(el as HTMLElement).scrollIntoView?.({ block: 'center', inline: 'center', behavior: 'instant' })
  const r = el.getBoundingClientRect()
  if (r.width < kMinFieldWidth || r.height < kMinFieldHeight)
    return refused(`too small to see (${Math.round(r.width)}×${Math.round(r.height)} px)`)
  const view = el.ownerDocument.defaultView!
  // Still outside the viewport after scrolling: placed where no scrolling reaches (left: -9999px).
  if (r.right <= 0 || r.bottom <= 0 || r.left >= view.innerWidth || r.top >= view.innerHeight)
    return refused('off screen')
  const hit = deepElementFromPoint(el.ownerDocument, r.left + r.width / 2, r.top + r.height / 2)
  // A label or wrapper the field sits in may be the hit (a floating label over the input); the
  // field, its own shadow tree or its <label> count as the field.
  const labels = [...(input.labels ?? [])]
  if (!hit || !(deepContains(el, hit) || hit === el || labels.some((l) => deepContains(l, hit))))
    return refused('covered by something else')
  return null
}

/** A form's destination origin, or null when it is not an http(s) address. */
function originOf(url: string): string | null {
  try {
    const u = new URL(url, location.href)
    return /^https?:$/.test(u.protocol) ? u.origin : null
  } catch {
    return null
  }
}

/**
 * The question for a step that sends a form holding a field a saved secret went into to another
 * origin, whoever's yes was asked about the site: the person is told that the secret goes along
 * (core/agent/ask.ts names it). Null when the form stays on this origin, or the person already said yes.
 */
export function secretFormQuestion(
  el: Element,
  nav: StepNavigation | null | undefined,
  confirmed: boolean,
): ExecFailure | null {
  if (confirmed || !nav?.form || !formCarriesSecret(el)) return null
  const to = originOf(nav.url)
  if (!to || to === location.origin) return null
  const host = new URL(to).host
  return {
    ok: false,
    code: 'NEEDS_CONFIRMATION',
    message: `This sends the form, with a saved secret typed into it, to another site: ${host}`,
    offsite: host,
    carriesData: true,
    carriesSecret: true,
    category: 'cross_site',
  }
}

/**
 * The receiver's secret checks for a step about to act on `el`, given the site gate's own verdict
 * (`refused`): a blocked site stays blocked; a form that takes a secret off its origin asks in
 * words that say so; a secret goes only into a field a person could see and use.
 */
export function secretStepCheck(
  el: Element,
  nav: StepNavigation | null,
  step: { typesSecret: boolean; confirmed: boolean },
  refused: ExecFailure | null,
): ExecFailure | null {
  if (refused?.code === 'BLOCKED') return refused
  const form = secretFormQuestion(el, nav, step.confirmed)
  if (form) return form
  if (refused) return refused
  return step.typesSecret ? secretFieldRefusal(el) : null
}
