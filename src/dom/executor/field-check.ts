/**
 * A step is done when the page took it (docs/executor.md, "The page took it"): after text goes
 * into a field, the field is left as a person moving on leaves it (`change`, then blur), so a
 * framework that validates or reformats on blur (Formik, React Hook Form in onBlur mode, a
 * Svelte-like store, an animated field) does so now; then the value is read back, and the
 * field's own error message, if one appeared, is read as the page's answer.
 */
import type { ExecFailure } from '../../core/exec'
import { normalizeText } from '../../core/page/text'
import { isVisible, quoteLabel, viewOf } from './dom'
import { fail } from '../../core/exec'
import { nextFrame, settle } from './wait'

/** Containers a field's error message is written in, beside the field. */
const kFieldItem =
  '.el-form-item,.ant-form-item,.n-form-item,.form-group,.form-item,.field,.mb-3,.MuiFormControl-root,.MuiTextField-root,td,li,p,label'
/** Error messages as libraries write them: ARIA alerts, Bootstrap's, Element Plus's, Ant Design's, MUI's, Formik's habits. */
const kErrorText =
  '[role=alert],.invalid-feedback,.el-form-item__error,.ant-form-item-explain-error,.Mui-error.MuiFormHelperText-root,.error,.error-message,.field-error,.help-block.error,[class*=error-text],[class*=errorText]'
/** The longest error message quoted back. */
const kMaxMessage = 160

/** The field's error message as the page shows it now ('' when none is shown). */
export function fieldError(el: Element): string {
  const doc = el.ownerDocument
  const ids = `${el.getAttribute('aria-errormessage') ?? ''} ${el.getAttribute('aria-invalid') === 'true' ? (el.getAttribute('aria-describedby') ?? '') : ''}`
  for (const id of ids.split(/\s+/)) {
    const target = id ? doc.getElementById(id) : null
    const text = target && isVisible(target) ? normalizeText(target.textContent) : ''
    if (text) return text.slice(0, kMaxMessage)
  }
  const item = el.parentElement?.closest(kFieldItem)
  if (!item) return ''
  for (const e of item.querySelectorAll(kErrorText)) {
    if (e === el || e.contains(el)) continue
    const text = isVisible(e) ? normalizeText(e.textContent) : ''
    if (text) return text.slice(0, kMaxMessage)
  }
  return ''
}

/**
 * Fields left to their own widget: what was typed opens a list to choose from (a combobox, an
 * autocomplete), or a picker reads the field when it is left and opens again on focus (date and
 * time pickers: picker.ts settles those).
 */
function suggestionsShown(el: Element): boolean {
  const doc = el.ownerDocument
  for (const list of doc.querySelectorAll('[role=listbox],[role=menu],.ui-autocomplete,.dropdown-menu.show')) {
    if (list.contains(el)) continue
    const box = list.getBoundingClientRect()
    if (box.width > 0 && box.height > 0 && doc.defaultView?.getComputedStyle(list).visibility !== 'hidden') return true
  }
  return false
}

function leftToWidget(el: Element): boolean {
  return (
    el.getAttribute('role') === 'combobox' ||
    el.hasAttribute('aria-autocomplete') ||
    el.hasAttribute('list') ||
    el.getAttribute('aria-haspopup') === 'listbox' ||
    // Autocompletes that mark only the field (jQuery UI, typeahead plugins), and any list the
    // typing opened: leaving the field would close the suggestions before they are chosen.
    el.matches('.ui-autocomplete-input,[class*=autocomplete],[class*=typeahead]') ||
    suggestionsShown(el) ||
    !!el.closest(
      '[role=listbox],[role=combobox],.select2-search,.ant-select,.el-select,.n-base-selection,.ant-picker,.el-date-editor,.n-date-picker,.n-time-picker,[class*=datepicker],[class*=date-picker],[class*=timepicker],[class*=time-picker],[data-provide=datepicker]',
    )
  )
}

/**
 * Leaves the field as a person moving on does and reads back what the page kept: a failure when
 * the page changed or cleared the value, or wrote an error message for it that was not there
 * before (`errorBefore`); null when the page took it. Focus goes back to the field afterwards,
 * so a next step that presses Enter still presses it there.
 */
export async function leaveAndReadBack(
  el: HTMLInputElement | HTMLTextAreaElement,
  value: string,
  same: (actual: string) => boolean,
  errorBefore: string,
): Promise<ExecFailure | null> {
  if (leftToWidget(el)) return null
  const V = viewOf(el)
  const doc = el.ownerDocument
  const focused = doc.activeElement === el
  el.dispatchEvent(new V.Event('change', { bubbles: true }))
  if (focused) el.blur()
  await settle()
  await nextFrame(V)
  const shown = el.type === 'password' ? '•••' : el.value
  let out: ExecFailure | null = null
  if (!same(el.value)) {
    out = fail(
      'NOT_ACTIONABLE',
      `Typed into ${quoteLabel(el)}, but when the field was left the page ${el.value ? `changed it to "${shown}"` : 'cleared it'}; the value is not set.`,
      {
        reason: 'value-rejected',
        suggestion: 'The field may accept only some values or a fixed format.',
      },
    )
  } else {
    const error = fieldError(el)
    if (error && error !== errorBefore) {
      out = fail(
        'NOT_ACTIONABLE',
        `Typed into ${quoteLabel(el)}, but the page does not accept it; beside the field it says (page text): "${error}"`,
        {
          reason: 'value-rejected',
          suggestion: 'Give a value the field accepts, as its message says.',
        },
      )
    }
  }
  if (focused && el.isConnected && !doc.activeElement?.closest('[role=dialog],[role=alertdialog]'))
    el.focus({ preventScroll: true })
  return out
}

/** Fields text went into in this document, with what went in: checked again before a submit. */
const typed = new WeakMap<Element, string>()
const typedFields = new Set<WeakRef<HTMLInputElement | HTMLTextAreaElement>>()
/** Fields remembered at most: a long run on one page forgets the oldest. */
const kMaxTyped = 200

/** Remembers what a step typed into a field (after the page took it). */
export function rememberTyped(el: HTMLInputElement | HTMLTextAreaElement): void {
  if (!typed.has(el)) {
    typedFields.add(new WeakRef(el))
    if (typedFields.size > kMaxTyped) typedFields.delete(typedFields.values().next().value!)
  }
  typed.set(el, el.value)
}

/**
 * Before a form is sent: the fields of that form that a step filled and that no longer hold what
 * went in, when they are required or now empty (a re-render that reset the form, a script that
 * cleared it). A submit then would send a form the person did not fill: the step fails and says
 * which fields to fill again.
 */
export function lostBeforeSubmit(trigger: Element): ExecFailure | null {
  const form = (trigger as HTMLButtonElement).form ?? trigger.closest('form')
  const lost: string[] = []
  for (const ref of typedFields) {
    const el = ref.deref()
    if (!el || !el.isConnected) continue
    if ((el.form ?? el.closest('form')) !== form || (!form && el.ownerDocument !== trigger.ownerDocument)) continue
    const want = typed.get(el) ?? ''
    if (el.value === want) continue
    const required = el.required || el.getAttribute('aria-required') === 'true'
    if (required || !el.value) lost.push(`${quoteLabel(el)} (${el.value ? 'now changed' : 'now empty'})`)
  }
  if (!lost.length) return null
  return fail(
    'NOT_ACTIONABLE',
    `Not submitted: ${lost.join(', ')} no longer ${lost.length > 1 ? 'hold' : 'holds'} what was typed; the page reset ${lost.length > 1 ? 'them' : 'it'}. Fill ${lost.length > 1 ? 'them' : 'it'} again, then submit.`,
    {
      reason: 'value-rejected',
      suggestion: 'Fill the fields again and submit once they hold their values.',
    },
  )
}

/** Whether a click on this element sends its form (a submit button or an image input). */
export function submitsForm(el: Element): boolean {
  const type = (el.getAttribute('type') ?? (el.localName === 'button' ? 'submit' : '')).toLowerCase()
  return (
    (el.localName === 'button' || el.localName === 'input') &&
    (type === 'submit' || type === 'image') &&
    !!(el as HTMLButtonElement).form
  )
}
