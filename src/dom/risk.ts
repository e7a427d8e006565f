import type { RiskCategory } from '../core/exec'
import { decideRisk, type FormFacts, type RiskFacts, type RiskFinding } from '../core/risk/decide'
import { kWords } from '../core/risk/lexicon'
import { foldText } from '../core/risk/text'
import { drawnWords, type DrawnTarget } from '../core/gate/drawn'
import { accessibleName, roleOf } from './locators'
import { iconCodeNames } from './words'
import type { RiskReading } from '../core/vocabulary'

/**
 * Whether acting on `el` is risky: this file reads the facts off the
 * page — the element's name and icons, its styling, the dialog, row and form around it — and
 * src/core/risk/decide.ts decides. Run in the page, where the element is, before anything is done.
 */
const kPaymentField = /(^|[-_\s])(cc|card|cvv|cvc|iban|credit)([-_\s]|number|$)/i
const kPartChars = 600 // per attribute, and per dialog or row text: far more than a label, bounded cost
const kTextChars = 2_000 // the element's own text: room for hidden padding before a visible word
const kMaxIconNodes = 24 // an icon is a few nodes deep inside its button

function formOf(el: Element): HTMLFormElement | null {
  if (el instanceof HTMLButtonElement || el instanceof HTMLInputElement) return el.form
  return el.closest('form')
}

function isButtonLike(el: Element): boolean {
  return (
    el instanceof HTMLButtonElement ||
    (el instanceof HTMLInputElement && /^(submit|button|reset|image)$/i.test(el.type)) ||
    el.getAttribute('role') === 'button'
  )
}

function submits(el: Element, as: RiskReading, name: string): boolean {
  if (as === 'key') return (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) && !!el.form
  if (el instanceof HTMLButtonElement)
    return el.type === 'submit' ? !!el.form : !!el.form && kWords.submit.test(foldText(name))
  if (el instanceof HTMLInputElement) return (el.type === 'submit' || el.type === 'image') && !!el.form
  // Component libraries often submit from a plain element inside the form.
  return !!el.closest('form') && kWords.submit.test(foldText(name))
}

const cap = (s: string | null | undefined, max = kPartChars) => (s ?? '').replace(/\s+/g, ' ').trim().slice(0, max)

/**
 * The accessible name (dom/words/accname.ts, the one computation) and every other part a page can hide
 * meaning in: the aria-label and title beside a name from elsewhere, the text content with what is
 * hidden, the alt texts and labels of the images and icons inside.
 */
export function labelOf(el: Element): string {
  // Not the name guessed from an icon: the icons are read as icons (dom/words iconCodeNames), and a button with no
  // name of its own is judged by the row it is in.
  const parts = [accessibleName(el, roleOf(el) || 'button'), el.getAttribute('aria-label'), el.getAttribute('title')]
  const text = cap(el.textContent, kTextChars)
  for (const img of [...el.querySelectorAll('img[alt], [aria-label]')].slice(0, 4))
    parts.push(img.getAttribute('alt') ?? img.getAttribute('aria-label'))
  return [...new Set([...parts.map((p) => cap(p)), text].filter(Boolean))].join(' ')
}

/** Styling a component library gives dangerous buttons (Element, Ant, Bootstrap, Carbon, Polaris, MUI, Material …). */
const kDangerClass = /(^|[-_])(danger|dangerous|destructive|critical)($|[-_])|colorerror|(^|[-_])(warn|error)$/i
const kDangerValue = /^(danger|dangerous|destructive|critical|error|warn|negative)$/i

function isDanger(el: Element): boolean {
  const control = el.closest('button, [role=button], a, input') ?? el
  for (const n of new Set([el, control])) {
    if ((n.getAttribute('class') ?? '').split(/\s+/).some((c) => kDangerClass.test(c))) return true
    for (const a of [
      'variant',
      'data-variant',
      'color',
      'data-color',
      'data-type',
      'kind',
      'severity',
      'appearance',
      'status',
    ]) {
      if (kDangerValue.test(n.getAttribute(a) ?? '')) return true
    }
    if (n.localName !== 'button' && n.localName !== 'input' && kDangerValue.test(n.getAttribute('type') ?? ''))
      return true
  }
  return false
}

const kDialog =
  '[role=dialog], [role=alertdialog], dialog, [aria-modal=true], .el-message-box, .el-popconfirm, .ant-popconfirm, .ant-modal-confirm, .modal'
const kContainer = 'tr, li, [role=row], [role=listitem], article, fieldset, form, section, [class*=card]'

/** Text of `root` without the text of its buttons and links: what the dialog says, not what it offers. */
function proseOf(root: Element): string {
  let text = ''
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT)
  for (let n = walker.nextNode(); n && text.length < kPartChars * 2; n = walker.nextNode()) {
    if (n.parentElement?.closest('button, [role=button], a, input, select, option, script, style')) continue
    text += ` ${n.nodeValue}`
  }
  return text.replace(/\s+/g, ' ').trim()
}

function formFacts(el: Element, form: HTMLFormElement): FormFacts {
  const fields = [...form.elements].filter((f): f is HTMLInputElement => f instanceof HTMLInputElement)
  const payment = fields.some(
    (f) => /^cc-/.test(f.autocomplete) || kPaymentField.test(f.name) || kPaymentField.test(f.id),
  )
  const password = fields.some((f) => f.type === 'password')
  // Where the data goes: the submitter's formaction wins over the form's action.
  const action =
    (el instanceof HTMLButtonElement || el instanceof HTMLInputElement) && el.hasAttribute('formaction')
      ? el.formAction
      : form.action
  let offSite: string | null = null
  try {
    const to = new URL(action, location.href)
    const data = [...form.elements].some((f) =>
      f instanceof HTMLInputElement
        ? !/^(submit|button|reset|image)$/i.test(f.type) &&
          f.name &&
          f.value &&
          (!/^(checkbox|radio)$/i.test(f.type) || f.checked)
        : (f instanceof HTMLSelectElement || f instanceof HTMLTextAreaElement) && f.name && f.value,
    )
    if (to.origin !== location.origin && data) offSite = to.host || to.protocol
  } catch {
    offSite = null
  }
  return { payment, password, offSite }
}

/** A login form without a <form>: a password field with a value in the few ancestors around the button. */
function loosePassword(el: Element): boolean {
  let n: Element | null = el.parentElement
  for (let i = 0; n && i < 5; i++, n = n.parentElement) {
    const pw = n.querySelector('input[type=password]') as HTMLInputElement | null
    if (pw) return !!pw.value
  }
  return false
}

/** The facts the decision reads, gathered from the page around `el`. */
export function riskFactsOf(el: Element, as: RiskReading, drawn?: DrawnTarget): RiskFacts {
  // The DOM's words and the drawn ones: a page can say "Save" and draw "Delete everything".
  // Said once when both say the same: a refusal quotes this name ("Delete account", not "Delete account Delete account").
  const dom = labelOf(el)
  const seen = drawn ? drawnWords(drawn) : ''
  // Only an exact repeat is dropped: a name that runs words together ("SaveDelete everything",
  // generated content after the text) keeps the drawn words apart, where the risk words are read.
  const label = seen && foldText(dom) !== foldText(seen) ? [dom, seen].filter(Boolean).join(' ') : dom
  const name = as === 'pointer' ? label : ''
  const form = submits(el, as, label) ? formOf(el) : null
  const facts: RiskFacts = { name, form: form ? formFacts(el, form) : null }
  if (!form && as === 'pointer' && kWords.submit.test(foldText(name)) && loosePassword(el))
    facts.form = { password: true }
  if (as !== 'pointer') return facts
  facts.icons = cap(iconCodeNames(el, kMaxIconNodes))
  facts.kind = el.closest('a[href]') && !isButtonLike(el) ? 'link' : 'button'
  facts.danger = isDanger(el)
  const dialog = el.closest(kDialog)
  facts.dialog = dialog ? proseOf(dialog) : null
  const around = el.parentElement?.closest(kContainer)
  facts.context = around && around !== dialog ? proseOf(around) : ''
  return facts
}

/**
 * The risk of setting `el` going as `as` says (a pointer's activation or a key, the action's
 * `gate.risk`): the first finding among the categories in `among` (the person's `confirm` list),
 * so turning one category off does not hide another.
 */
export function riskOf(
  el: Element,
  as: RiskReading,
  among?: readonly RiskCategory[],
  drawn?: DrawnTarget,
): RiskFinding | null {
  return decideRisk(riskFactsOf(el, as, drawn), among)
}
