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
import { fail } from './ladder'
import { nextFrame, settle } from './wait'

/** Containers a field's error message is written in, beside the field. */
const kFieldItem = '.el-form-item,.ant-form-item,.n-form-item,.form-group,.form-item,.field,.mb-3,.MuiFormControl-root,.MuiTextField-root,td,li,p,label'
/** Error messages as libraries write them: ARIA alerts, Bootstrap's, Element Plus's, Ant Design's, MUI's, Formik's habits. */
const kErrorText = '[role=alert],.invalid-feedback,.el-form-item__error,.ant-form-item-explain-error,.Mui-error.MuiFormHelperText-root,.error,.error-message,.field-error,.help-block.error,[class*=error-text],[class*=errorText]'
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

/** Fields a person does not leave after typing: what was typed opens a list to choose from. */
function choosesFromList(el: Element): boolean {
  return el.getAttribute('role') === 'combobox' || el.hasAttribute('aria-autocomplete') || el.hasAttribute('list') || el.getAttribute('aria-haspopup') === 'listbox' || !!el.closest('[role=listbox],[role=combobox],.select2-search,.ant-select,.el-select,.n-base-selection')
}

/**
 * Leaves the field as a person moving on does and reads back what the page kept: a failure when
 * the page changed or cleared the value, or wrote an error message for it that was not there
 * before (`errorBefore`); null when the page took it. Focus goes back to the field afterwards,
 * so a next step that presses Enter still presses it there.
 */
export async function leaveAndReadBack(el: HTMLInputElement | HTMLTextAreaElement, value: string, same: (actual: string) => boolean, errorBefore: string): Promise<ExecFailure | null> {
  if (choosesFromList(el)) return null
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
    out = fail('NOT_ACTIONABLE', `Typed into ${quoteLabel(el)}, but when the field was left the page ${el.value ? `changed it to "${shown}"` : 'cleared it'}; the value is not set.`, {
      reason: 'value-rejected',
      suggestion: 'The field may accept only some values or a fixed format.',
    })
  } else {
    const error = fieldError(el)
    if (error && error !== errorBefore) {
      out = fail('NOT_ACTIONABLE', `Typed into ${quoteLabel(el)}, but the page does not accept it; beside the field it says (page text): "${error}"`, {
        reason: 'value-rejected',
        suggestion: 'Give a value the field accepts, as its message says.',
      })
    }
  }
  if (focused && el.isConnected && !doc.activeElement?.closest('[role=dialog],[role=alertdialog]')) el.focus({ preventScroll: true })
  return out
}
