/**
 * Native inputs that are not free text: date, time, datetime-local, month, week,
 * number, range and color take one value format, file inputs take files, contenteditable editors
 * keep their own model. The value is normalized in core (values.ts), set the way the browser sets
 * it, and read back: a value the page or the element refused is a failure, never a silent "".
 */
import type { ExecFailure } from '../../core/exec'
import type { UploadFile } from '../../core/page/command'
import { kNativeKinds, outOfBounds, safeNormalizeValue, type NativeKind } from '../../core/page/values'
import { normalize } from '../locators'
import { quoteLabel, viewOf } from './dom'
import { setNativeValue } from './events'
import { fail } from '../../core/exec'

const kKinds = new Set<string>(kNativeKinds)

/** The native kind of an input whose value has a fixed format, or null for text-like fields. */
export function nativeKindOf(el: Element): NativeKind | null {
  const type = el instanceof viewOf(el).HTMLInputElement ? el.type : ''
  return kKinds.has(type) ? (type as NativeKind) : null
}

/** The language the page writes its dates in: the nearest `lang`, else the browser's. */
export function pageLocale(el: Element): string {
  return (
    el.closest('[lang]')?.getAttribute('lang') ||
    el.ownerDocument.documentElement.lang ||
    viewOf(el).navigator.language ||
    'en-US'
  )
}

/**
 * CSS colour names ("rebeccapurple") through the browser's own parser: a canvas keeps its old
 * fillStyle when given a name it does not know, so a sentinel tells the two apart.
 */
function namedColor(doc: Document): (name: string) => string | null {
  return (name) => {
    const ctx = doc.createElement('canvas').getContext('2d')
    if (!ctx) return null
    const sentinel = '#010203'
    ctx.fillStyle = sentinel
    ctx.fillStyle = name
    const out = String(ctx.fillStyle)
    return out === sentinel ? null : out
  }
}

function fire(el: Element, type: 'input' | 'change'): void {
  const V = viewOf(el)
  el.dispatchEvent(new V.Event(type, { bubbles: true, composed: type === 'input' }))
}

/**
 * Sets a date, time, number, range or colour value: normalized, checked against min/max/step,
 * set through the prototype's setter (React's controlled inputs see it), then input and change as
 * the browser sends them when a person picks a value. Returns the value set and how an ambiguous
 * input was read; `confirm` reads it back once the page's framework had its turn.
 */
export function setNative(
  el: HTMLInputElement,
  kind: NativeKind,
  raw: string,
): { ok: true; value: string; note?: string; previous: string } | ExecFailure {
  const parsed = safeNormalizeValue(kind, raw, { locale: pageLocale(el), namedColor: namedColor(el.ownerDocument) })
  if (!parsed.success)
    return fail('INVALID', `${parsed.error.message.replace(/\.$/, '')} for ${quoteLabel(el)}.`, {
      suggestion: `Write the value as ${parsed.error.expected}.`,
    })
  const { value, note } = parsed.data
  const refused = outOfBounds(kind, value, { min: el.min, max: el.max, step: el.getAttribute('step') ?? undefined })
  if (refused)
    return fail(
      'NOT_ACTIONABLE',
      `${quoteLabel(el)} does not accept ${raw === value ? value : `"${raw}" (${value})`}: ${refused}.`,
      { reason: 'value-rejected', suggestion: 'Choose a value inside the range the field shows.' },
    )
  const previous = el.value
  el.focus({ preventScroll: true })
  setNativeValue(el, value)
  fire(el, 'input')
  fire(el, 'change')
  return note ? { ok: true, value, note, previous } : { ok: true, value, previous }
}

/** After the page's tick: the value stuck, or the failure that says what the page kept. */
export function confirmNative(
  el: HTMLInputElement,
  kind: NativeKind,
  value: string,
  previous: string,
): ExecFailure | null {
  // The browser's own check catches what min/max could not (a date step, a pattern of the page).
  const stepMismatch = el.validity?.stepMismatch && kind !== 'number' && kind !== 'range'
  const kept =
    kind === 'number' || kind === 'range'
      ? Number(el.value) === Number(value) && el.value !== ''
      : el.value.toLowerCase() === value.toLowerCase()
  if (kept && !stepMismatch) return null
  if (stepMismatch) {
    setNativeValue(el, previous)
    fire(el, 'input')
    fire(el, 'change')
  }
  // Without a step attribute, times step by whole minutes (HTML §4.10.5.1.8).
  const steps = el.step ? `steps of ${el.step}` : 'whole minutes'
  return fail(
    'NOT_ACTIONABLE',
    `Set ${quoteLabel(el)} to ${value} but the ${stepMismatch ? `field allows only ${steps}` : `page kept "${el.value}"`}.`,
    {
      reason: 'value-rejected',
      suggestion: stepMismatch
        ? 'Choose a value on the field’s step.'
        : 'The page may limit this field to some values; read what it shows and choose one of those.',
    },
  )
}

/** Date pickers of Element Plus and Ant Design: a text input that parses what is typed with dayjs. */
const kPicker = '.el-date-editor,.ant-picker'

/**
 * The text to type into a library date picker for a date written as people write it: both
 * libraries parse `YYYY-MM-DD` (and `YYYY-MM-DD HH:mm:ss` with a time) by default, not
 * "Sept 27 2018". Only when the picker shows that format (or nothing yet), so a page that set its
 * own format gets the text as written.
 */
export function pickerText(
  el: HTMLInputElement | HTMLTextAreaElement,
  raw: string,
): { value: string; note?: string } | null {
  if (!el.closest(kPicker) || (el.value && !/^\d{4}-\d{2}-\d{2}/.test(el.value))) return null
  const opts = { locale: pageLocale(el) }
  const at = safeNormalizeValue('datetime-local', raw, opts)
  const r = at.success
    ? { value: `${at.data.value.replace('T', ' ')}${at.data.value.length === 16 ? ':00' : ''}`, note: at.data.note }
    : safeNormalizeValue('date', raw, opts)
  const data = 'success' in r ? (r.success ? r.data : null) : r
  if (!data || data.value === raw || !data.value) return null
  return data.note
    ? { value: data.value, note: `as ${data.value}; ${data.note}` }
    : { value: data.value, note: `as ${data.value}` }
}

/** What a contenteditable shows, as a person reads it (paragraphs as single spaces). */
function editableText(el: HTMLElement): string {
  return normalize(el.innerText ?? el.textContent)
}

/** contenteditable and rich editors (Quill, ProseMirror): the text they show after the edit. */
export function confirmEditable(el: HTMLElement, value: string): ExecFailure | null {
  const shown = editableText(el)
  if (shown === normalize(value)) return null
  return fail('NOT_ACTIONABLE', `Typed into ${quoteLabel(el)} but the editor shows "${shown.slice(0, 80)}".`, {
    reason: 'value-rejected',
    suggestion: 'The editor may need its own toolbar or a click inside it first.',
  })
}

/** Upload widgets that hide the native input behind a styled button (el-upload, a-upload, Dropzone). */
const kUploadWrapper = '.el-upload,.ant-upload,.ant-upload-wrapper,.dropzone,[class*=upload i]'
/** Ancestors searched for the file input of a button someone styled. */
const kUploadDepth = 4

/** The `<input type=file>` behind a target: itself, its label's control, or one inside its upload widget. */
export function fileInputOf(target: Element): HTMLInputElement | null {
  const V = viewOf(target)
  const isFile = (n: Element | null | undefined): n is HTMLInputElement =>
    n instanceof V.HTMLInputElement && n.type === 'file'
  if (isFile(target)) return target
  if (target instanceof V.HTMLLabelElement && isFile(target.control)) return target.control
  const wrapper = target.closest(kUploadWrapper)
  const inWrapper = wrapper?.querySelector('input[type=file]')
  if (isFile(inWrapper)) return inWrapper
  let n: Element | null = target
  for (let i = 0; n && i < kUploadDepth; i++, n = n.parentElement) {
    const inputs = n.querySelectorAll('input[type=file]')
    // Only an unambiguous one: a form with two file inputs needs the person's choice.
    if (inputs.length === 1) return inputs[0] as HTMLInputElement
    if (inputs.length > 1) return null
  }
  return null
}

/** Whether a file fits the input's `accept` list (`.pdf`, `image/*`, `text/plain`). */
export function accepts(accept: string, file: { name: string; type: string }): boolean {
  const kinds = accept
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean)
  if (!kinds.length) return true
  const name = file.name.toLowerCase()
  const type = file.type.toLowerCase()
  return kinds.some((k) =>
    k.startsWith('.') ? name.endsWith(k) : k.endsWith('/*') ? type.startsWith(k.slice(0, -1)) : type === k,
  )
}

function bytesOf(base64: string): Uint8Array {
  const bin = atob(base64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

/**
 * Puts files into a file input as the file chooser does: a DataTransfer's
 * FileList on `input.files`, then input and change. Works on hidden inputs: the chooser of a
 * styled upload button never opens, the page gets the files it would have got.
 */
export function uploadFiles(input: HTMLInputElement, files: UploadFile[]): { ok: true; names: string[] } | ExecFailure {
  const V = viewOf(input)
  if (input.disabled) return fail('NOT_ACTIONABLE', `${quoteLabel(input)} is disabled.`, { reason: 'disabled' })
  if (files.length > 1 && !input.multiple)
    return fail('NOT_ACTIONABLE', `${quoteLabel(input)} takes one file; ${files.length} were given.`, {
      reason: 'value-rejected',
      suggestion: 'Upload one file at a time.',
    })
  const list = new V.DataTransfer()
  for (const f of files) {
    const file = new V.File([bytesOf(f.base64) as BlobPart], f.name, { type: f.mimeType ?? '' })
    if (!accepts(input.accept, file))
      return fail('NOT_ACTIONABLE', `${quoteLabel(input)} accepts ${input.accept}, not "${f.name}".`, {
        reason: 'value-rejected',
        suggestion: 'Choose a file of a kind the page asks for.',
      })
    list.items.add(file)
  }
  input.files = list.files
  if (input.files?.length !== files.length)
    return fail('NOT_ACTIONABLE', `${quoteLabel(input)} did not take the files.`, { reason: 'value-rejected' })
  fire(input, 'input')
  fire(input, 'change')
  return { ok: true, names: files.map((f) => f.name) }
}
