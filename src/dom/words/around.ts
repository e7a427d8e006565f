/**
 * What a person sees around a control and calls it by, beyond its name
 * (docs/page-representation.md, "An element's words"). Its accessible name comes from
 * accname.ts; this part adds what the name leaves out:
 *
 * - the function a drawn glyph or icon means, in English and Chinese (core/page/icon-meaning.ts);
 * - the widget part it is: a slider's handle, a spinner's arrows, a dropdown's toggle, a file
 *   input's "upload", a form's submit button, a colour picker, a rating's stars;
 * - the group it is in: a fieldset's legend, a labelled button group or radio group, a search form;
 * - the record it sits in: a card's or a post's text, the heading a permalink belongs to;
 * - the label a field has by layout when none is tied to it: the cell before it in its table row,
 *   the column's header.
 *
 * The semantic rung (dom/executor/semantic/) matches descriptors against these words, and a
 * failed locate shows its candidates by them (`peopleLabel`), never as an empty string.
 */
import { glyphMeaning, iconMeaning } from '../../core/page/icon-meaning'
import { normalizeText } from '../../core/page/text'
import { referencedElements, referencedText } from './accname'
import { classOf } from './icons'

const kSpinUp =
  /(?:^|[\s_-])(?:increase|increment|plus|up|arrow-up|spin-up|handler-up|add)(?:[\s_-]|$)|__increase|-up-|handler-up/i
const kSpinDown =
  /(?:^|[\s_-])(?:decrease|decrement|minus|down|arrow-down|spin-down|handler-down)(?:[\s_-]|$)|__decrease|-down-|handler-down/i
const kHandle =
  /(?:^|[\s_-])(?:handle|thumb|knob)(?:[\s_-]|$)|slider__button|slider-handle|slider-thumb|slider__handle|rail-handle/i
const kToggle =
  /(?:^|[\s_-])(?:dropdown-toggle|caret|chevron|toggle|arrow|expand-icon|suffix)(?:[\s_-]|$)|select__caret|select-arrow|select__icon|selection-arrow|base-suffix/i
const kNumberWidget =
  '.n-input-number,.el-input-number,.ant-input-number,[class*=input-number],[class*=spinner],[class*=stepper],[class*=quantity]'
const kSliderWidget = '[role=slider],.el-slider,.ant-slider,.n-slider,.MuiSlider-root,.ui-slider,[class*=slider]'
const kRate = '.el-rate__item,.ant-rate-star,.n-rate__item,[class*=rating] [class*=star],[class*=rate] [class*=star]'
const kColor =
  'input[type=color],.el-color-picker,.el-color-picker__trigger,.ant-color-picker-trigger,.n-color-picker,[class*=color-picker]'
const kUpload = '[class*=upload],[class*=file-input],[class*=dropzone]'

/** A slider's handle drawn as a plain element (jQuery UI's `.ui-slider-handle`, a `[class*=thumb]` in a slider). */
export function isSliderHandle(el: Element): boolean {
  return kHandle.test(classOf(el)) && !!el.parentElement?.closest(kSliderWidget)
}

/** A button that opens a list or menu beside it: what people call "the dropdown" (Bootstrap's toggle, a listbox button). */
export function isDropdownToggle(el: Element): boolean {
  if (el.getAttribute('aria-haspopup') === 'listbox') return true
  // A menu button ("More actions ▾") opens commands, not choices: only a toggle whose list holds options is a dropdown to fill.
  if (!el.matches('.dropdown-toggle,[data-bs-toggle=dropdown],[data-toggle=dropdown]')) return false
  const list = el.nextElementSibling
  return (
    !!list &&
    (list.getAttribute('role') === 'listbox' ||
      !!list.querySelector(':scope > [role=option], :scope > li > [role=option]'))
  )
}

/** Whether a form is a search form: role=search, or its one text field is a search or `q` field. */
function isSearchForm(form: Element | null): boolean {
  if (!form) return false
  if (form.matches('[role=search]') || form.closest('[role=search],.search,[class*=search]')) return true
  return !!form.querySelector('input[type=search],input[name=q],input[name=query],input[name=search]')
}

/**
 * The words of the widget part a control is, as people name parts ("the spinner's up arrow",
 * "the slider handle", "the dropdown", "the upload button", "提交按钮"): '' for a control that is
 * no part of anything. Read from the element's own markup and its widget's classes.
 */
export function partWords(el: Element, role: string): string {
  const tag = el.localName
  const cls = classOf(el)
  const type =
    tag === 'input'
      ? (el.getAttribute('type') ?? 'text').toLowerCase()
      : tag === 'button'
        ? (el.getAttribute('type') ?? 'submit').toLowerCase()
        : ''
  const out: string[] = []
  if (tag === 'input' && type === 'file') out.push('file upload browse choose attach 上传 文件 附件')
  else if (tag === 'label' && (el as HTMLLabelElement).control?.getAttribute('type') === 'file')
    out.push('file upload browse choose 上传 文件')
  else if (el.matches(kUpload) && (role === 'button' || tag === 'button' || tag === 'label'))
    out.push('upload file 上传 文件')
  if (type === 'range' || role === 'slider' || isSliderHandle(el)) out.push('slider handle thumb knob 滑块 手柄')
  if (el.matches(kColor)) out.push('color colour picker 颜色 颜色选择器')
  if (el.matches(kRate)) out.push('star rating 星 评分')
  const inNumber =
    !!el.closest(kNumberWidget) ||
    !!el.parentElement?.querySelector(':scope > input[type=number],:scope > [role=spinbutton]')
  if (inNumber && tag !== 'input') {
    if (kSpinUp.test(cls) || /^[+＋▲▴⏶]$/.test(normalizeText(el.textContent)))
      out.push('up arrow increase increment plus spinner stepper 增加 加 向上')
    else if (kSpinDown.test(cls) || /^[-−–－▼▾⏷]$/.test(normalizeText(el.textContent)))
      out.push('down arrow decrease decrement minus spinner stepper 减少 减 向下')
  }
  if (
    tag !== 'input' &&
    (el.getAttribute('aria-haspopup') === 'listbox' ||
      el.getAttribute('aria-haspopup') === 'true' ||
      el.getAttribute('aria-haspopup') === 'menu' ||
      kToggle.test(cls))
  )
    out.push('dropdown toggle arrow 下拉')
  // A link to a place in this page is a link to a section of it ("the Comparisons section link").
  if (tag === 'a' && /^#./.test(el.getAttribute('href') ?? '')) out.push('section 章节')
  // A form's submit button is "the submit button" whatever it says, and a search form's is "the search button".
  if (
    (type === 'submit' || type === 'image') &&
    (tag === 'button' || tag === 'input') &&
    (el as HTMLButtonElement).form
  ) {
    out.push('submit 提交')
    if (isSearchForm((el as HTMLButtonElement).form)) out.push('search 搜索')
  }
  return out.join(' ')
}

/**
 * The label of the field a widget part belongs to (a spinner's arrows, the field's `<label>`):
 * "the Price per night spinner's up arrow" names the arrow by its field. '' for no part.
 */
export function widgetFieldLabel(el: Element): string {
  if (/^(input|select|textarea)$/.test(el.localName)) return ''
  const widget =
    el.parentElement?.closest(kNumberWidget) ?? (isSliderHandle(el) ? el.parentElement!.closest(kSliderWidget) : null)
  const input = widget?.querySelector('input')
  if (!input) return ''
  const labels = [...(input.labels ?? [])].map((l) => l.textContent ?? '').join(' ')
  return normalizeText(labels || input.getAttribute('aria-label') || '').slice(0, 60)
}

/** The words of a glyph drawn as the element's whole text (▾, ★, ¶, ›), in both languages. */
export function glyphWords(el: Element): string {
  const text = el.textContent ?? ''
  return text.length <= 8 ? glyphMeaning(text) : ''
}

/** The words an icon's name means (`trash` → delete 删除), for icon words already read. */
export { iconMeaning }

const kGroup =
  'fieldset,[role=group],[role=radiogroup],[role=toolbar],[role=search],.btn-group,.el-radio-group,.el-checkbox-group,.ant-radio-group,.ant-checkbox-group,.n-radio-group'
/** Ancestors climbed looking for the group a control is in. */
const kGroupDepth = 6

/**
 * The name of the group a control is in, as a person reads it above or around the group: a
 * fieldset's legend, a group's aria-label or aria-labelledby text, "search" for a search form.
 */
export function groupWords(el: Element): string {
  let n = el.parentElement
  for (let i = 0; n && i < kGroupDepth; i++, n = n.parentElement) {
    if (!n.matches(kGroup)) continue
    if (n.localName === 'fieldset') {
      const legend = n.querySelector(':scope > legend')
      if (legend && !legend.contains(el)) return normalizeText(legend.textContent).slice(0, 60)
    }
    const label = n.getAttribute('aria-label')
    if (label) return normalizeText(label).slice(0, 60)
    const t = referencedText(n, n.getAttribute('aria-labelledby'))
    if (t.trim()) return normalizeText(t).slice(0, 60)
    if (n.matches('[role=search]')) return 'search 搜索'
  }
  return ''
}

/** Containers that are one record to a person: a card, a post, a tile (rows are read by the caller). */
const kRecord = 'article,[role=article],.card,[class*=card],.post,[class*=post],[class*=tile],.list-group-item,.media'
/** Text longer than this is a page section, not one record. */
const kRecordMaxChars = 200

/** Text with a space between text nodes: `textContent` glues a card's title to its byline ("DuneFrank"). */
export function spacedText(el: Element): string {
  const parts: string[] = []
  const walker = el.ownerDocument.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */)
  for (let n = walker.nextNode(); n; n = walker.nextNode()) parts.push(n.textContent ?? '')
  return normalizeText(parts.join(' '))
}

/**
 * The text of the record a control sits in (a product card, a post), as a person reads "Details
 * of Dune": '' when it sits in none, or in one as long as a page section. A permalink's record is
 * the heading or term it belongs to.
 */
export function recordText(el: Element, cache?: Map<Element, string>): string {
  const parent = el.parentElement
  if (parent && /^(h[1-6]|dt)$/.test(parent.localName)) return normalizeText(parent.textContent).slice(0, 80)
  const card = parent?.closest(kRecord)
  if (!card) return ''
  let t = cache?.get(card)
  if (t === undefined) {
    const raw = card.textContent ?? ''
    t = raw.length > kRecordMaxChars * 3 ? '' : spacedText(card)
    if (t.length > kRecordMaxChars) t = ''
    cache?.set(card, t)
  }
  return t
}

/**
 * The label a field has by layout in a table of inputs, when nothing is tied to it: the text of
 * the nearest cell before it in its row that holds no field, and its column's header.
 */
export function cellLabel(el: Element): string {
  const cell = el.closest('td,th,[role=gridcell],[role=cell]')
  if (!cell) return ''
  const parts: string[] = []
  for (let prev = cell.previousElementSibling; prev; prev = prev.previousElementSibling) {
    if (prev.querySelector('input,select,textarea,button')) continue
    const t = normalizeText(prev.textContent)
    if (t) {
      parts.push(t.slice(0, 40))
      break
    }
  }
  // The column's header: the cell at the same place in the table's first (head) row.
  const row = cell.parentElement
  const table = cell.closest('table,[role=grid],[role=table]')
  const index = row ? Array.prototype.indexOf.call(row.children, cell) : -1
  const head = table?.querySelector('thead tr') ?? table?.querySelector('tr,[role=row]')
  if (head && head !== row && index >= 0) {
    const th = head.children[index]
    if (th && (th.localName === 'th' || th.getAttribute('role') === 'columnheader')) {
      const t = normalizeText(th.textContent)
      if (t) parts.push(t.slice(0, 40))
    }
  }
  return parts.join(' ')
}

/**
 * A short description of an element for a person, made only of what it shows and where it is,
 * for a candidate that has no name: never an empty string.
 */
export function peopleLabel(el: Element, known = ''): string {
  const said = normalizeText(
    known ||
      el.getAttribute('aria-label') ||
      el.getAttribute('title') ||
      el.getAttribute('placeholder') ||
      (el as HTMLInputElement).value ||
      el.textContent,
  )
  const part = partWords(el, el.getAttribute('role') ?? '')
    .split(' ')
    .filter((w) => /^[a-z]/.test(w))
    .slice(0, 3)
    .join(' ')
  const glyph = glyphWords(el).split(' ')[0]
  const group = groupWords(el)
  const kind =
    el.localName === 'input' ? `${el.getAttribute('type') ?? 'text'} field` : (el.getAttribute('role') ?? el.localName)
  const what = said ? (glyph ? `${said} (${glyph})` : said) : part || glyph ? `${kind} (${part || glyph})` : kind
  return (group && !what.includes(group) ? `${what} in "${group}"` : what).slice(0, 60)
}

/**
 * The words a region of the listing is headed by, as a person reads its title: its aria-label,
 * the node aria-labelledby names first, a dialog's heading, a form's legend or name. '' for none;
 * the caller clips.
 */
export function regionHeader(el: Element, kind: string): string {
  const aria = el.getAttribute('aria-label')
  if (aria) return aria
  const by = referencedElements(el, el.getAttribute('aria-labelledby'), 1)[0]
  if (by) return by.textContent ?? ''
  if (kind === 'dialog') {
    const heading = el.querySelector('h1,h2,h3,h4,[role=heading]')
    if (heading) return heading.textContent ?? ''
  }
  if (kind === 'form') {
    const legend = el.querySelector('legend')
    if (legend) return legend.textContent ?? ''
    const name = el.getAttribute('name')
    if (name) return name
  }
  return ''
}

/** The words a group of twins (table rows, cards) is headed by: its table's caption or aria-label, else its own aria-label. */
export function groupHeader(container: Element): string {
  const table = container.closest('table')
  const caption = table?.querySelector('caption')?.textContent ?? table?.getAttribute('aria-label')
  return caption || (container.getAttribute('aria-label') ?? '')
}
