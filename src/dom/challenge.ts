/**
 * Reads off a document what says "only the person can do this": one-time code fields and CAPTCHA
 * widgets, as drawn (a hidden template or an off-screen field is no challenge). The rules are
 * core's (src/core/page/challenge.ts); this file only gathers the facts they need.
 */
import { challengeOf, type Challenge, type ChallengeFacts, type FieldFacts } from '../core/page/challenge'
import { idOfElement } from './observe/ids'
import { labelText } from './words'

/** The words around a field that are read: enough for a form's heading and hint, not a whole article. */
const kContextChars = 600
/** Fields, frames and images looked at at most: a code page has a handful. */
const kMaxLooked = 200

function viewOf(el: Element): Window {
  return (el.ownerDocument.defaultView ?? window) as Window
}

/** Drawn as a person would see it: shown by CSS, with a box. A document without layout (happy-dom) has no boxes to check. */
function drawn(el: Element): boolean {
  if (!el.isConnected || el.closest('[hidden], template')) return false
  const view = viewOf(el)
  for (let n: Element | null = el; n; n = n.parentElement) {
    const s = view.getComputedStyle(n)
    if (s.display === 'none' || s.visibility === 'hidden') return false
  }
  const layout = el.ownerDocument.documentElement.getBoundingClientRect().width > 0
  if (!layout) return true
  const r = el.getBoundingClientRect()
  if (r.width < 2 || r.height < 2) return false
  return (
    typeof el.checkVisibility !== 'function' || el.checkVisibility({ opacityProperty: true } as CheckVisibilityOptions)
  )
}

/** The text of the form (or dialog, section, main) a field is in: where a code page says what the code is. */
function contextOf(el: Element): string {
  const box = el.closest('form, [role=dialog], dialog, section, main, fieldset') ?? el.parentElement?.parentElement
  return (box?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, kContextChars)
}

function factsOf(el: HTMLInputElement | HTMLTextAreaElement): FieldFacts {
  const attr = (n: string) => el.getAttribute(n) ?? ''
  const max = Number.parseInt(attr('maxlength'), 10)
  return {
    ...(idOfElement(el) ? { id: idOfElement(el)! } : {}),
    type: el.localName === 'textarea' ? 'textarea' : attr('type').toLowerCase() || 'text',
    autocomplete: attr('autocomplete'),
    inputmode: attr('inputmode'),
    ...(Number.isFinite(max) ? { maxLength: max } : {}),
    words: [attr('name'), attr('id'), attr('placeholder'), attr('aria-label'), attr('title'), labelText(el)].join(' '),
    context: contextOf(el),
  }
}

/** The facts of `doc` the challenge rules read. */
export function challengeFacts(doc: Document): ChallengeFacts {
  const fields = [...doc.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')]
    .slice(0, kMaxLooked)
    .filter(drawn)
    .map(factsOf)
  const frames = [...doc.querySelectorAll('iframe')]
    .slice(0, kMaxLooked)
    .filter(drawn)
    .map((f) => f.src)
    .filter(Boolean)
  // A widget's container is drawn around its frame; a script may not have rendered it yet.
  const widgets = [...doc.querySelectorAll('[class*=captcha], [id*=captcha], [id*=Captcha], [class*=turnstile]')]
    .slice(0, kMaxLooked)
    // reCAPTCHA v3's badge asks the person nothing.
    .filter((el) => drawn(el) && !el.closest('.grecaptcha-badge'))
    .map((el) => `${el.getAttribute('class') ?? ''} ${el.id}`.trim())
  const images = [...doc.querySelectorAll('img')]
    .slice(0, kMaxLooked)
    .filter(drawn)
    .map((img) => `${img.alt} ${img.getAttribute('src')?.split(/[?#]/)[0].split('/').pop() ?? ''}`)
  return { fields, frames, widgets, images }
}

/** The challenge `doc` draws now, or undefined. */
export function findChallenge(doc: Document = document): Challenge | undefined {
  return challengeOf(challengeFacts(doc))
}
