/**
 * Kind fit: whether an element is the kind of control a descriptor names (a button, a date field,
 * a close control, a switch, a widget part), and whether its state fits.
 */
import { type ControlKind, type Descriptor, type PartWord } from '../../../core/page/descriptor'
import { checkedState, normalize, roleOf, stateOf } from '../../locators'
import {
  classOf,
  FieldLabels,
  fieldWords,
  isDropdownToggle,
  isSliderHandle,
  kFieldWidget,
  labelText,
} from '../../words'

/** Pictures named by their alt text, outside any control (a control's picture is part of its name). */
export const kPicture = 'img[alt]:not([alt=""])'

/** Colour pickers drawn by libraries (a native `input[type=color]` is its own kind: the colour field). */
export const kColorPicker = '.el-color-picker,.ant-color-picker-trigger,.n-color-picker'

/** Number inputs of component libraries: a text input inside a stepper. */
export const kNumberWidget = '.n-input-number,.el-input-number,.ant-input-number'

/** A plain element with a click handler, asked for as a link or button: it may be one (a span styled as a link). */
export const kGenericFit = 0.6

export const kFieldKinds = new Set<ControlKind>([
  'textbox',
  'searchbox',
  'spinbutton',
  'combobox',
  'listbox',
  'date',
  'time',
  'textarea',
  'slider',
])

/** Typed into or set, rather than clicked. */
export function isFieldEl(el: Element, role: string): boolean {
  if (el.localName === 'input')
    return !/^(submit|button|reset|image|checkbox|radio|file)$/i.test(el.getAttribute('type') ?? '')
  return (
    el.localName === 'select' ||
    el.localName === 'textarea' ||
    /^(combobox|textbox|searchbox|spinbutton|slider|listbox)$/.test(role)
  )
}

export const kDateTypes = /^(date|datetime-local|month|week)$/

export const kTimeTypes = /^(time|datetime-local)$/

export const kDateWidget =
  '.el-date-editor,.ant-picker,.n-date-picker,.v-date-picker,[class*=datepicker],[class*=date-picker]'

export const kTimeWidget =
  '.el-date-editor--time,.el-date-editor--time-select,.ant-picker-time,.n-time-picker,[class*=timepicker],[class*=time-picker]'

/** Editors' editable roots: Quill, ProseMirror (Tiptap), TinyMCE's inline body, CKEditor 5. */
export const kEditor = '.ql-editor,.ProseMirror,.mce-content-body,.ck-editor__editable'

/** A checkbox drawn as a switch (MUI's Switch, Bootstrap 4's custom switch): a switch to a person. */
export const kSwitchWrap = '.MuiSwitch-root,.form-switch,.custom-switch'

export const kCollapsible =
  'summary,.el-collapse-item__header,.ant-collapse-header,.accordion-button,.ui-accordion-header,.n-collapse-item__header,.v-expansion-panel-title'

/** Class names of close controls across libraries (`.close`, `btn-close`, `el-dialog__headerbtn`, `ant-modal-close`). */
export const kCloseClass = /(^|[\s_-])(close|closer|dismiss)([\s_-]|$)|headerbtn|btn-close/i

export const kCloseName =
  /^(?:close|dismiss|x|×|✕|✖|✗|╳)(?:\s+(?:this\s+)?(?:dialog|modal|window|panel|popup|drawer|message|notification|alert|tab))?$|^关闭(?:此)?(?:对话框|弹窗|窗口|提示)?$/i

export const kGlyph = /^(?:x|×|✕|✖|✗|╳)$/i

/** A control named for showing or hiding something ("Collapse sidebar", "展开全部"): it is what "the collapse button" means. */
export const kToggleName = /^(?:collapse|expand|toggle|fold|unfold|收起|展开|折叠)(?![\p{L}])/iu

/** Kinds that any clickable thing may be, even one without a role (a span with a click handler). */
export const kClickKinds = new Set<ControlKind>(['button', 'link', 'menuitem', 'tab', 'close'])

/**
 * What a clickable thing says it does: its aria-label, else its title (the tooltip a person reads
 * over a « glyph), else its text. Not the accessible name, where the « itself would win.
 */
const saysItDoes = (el: Element, text = el.textContent) =>
  normalize(el.getAttribute('aria-label') || el.getAttribute('title') || text)

export function isCloseControl(el: Element, role: string): boolean {
  if (role !== 'button' && role !== 'link' && role !== '' && role !== 'generic' && role !== 'img') return false
  if (kCloseClass.test(classOf(el))) return true
  // A control with a sentence of text is not a close control, whatever its name says.
  const short = normalize(el.textContent)
  if (short.length > 24) return false
  if (kCloseName.test(saysItDoes(el, short))) return true
  // An icon-only button whose icon is a close icon.
  return !short && !!el.querySelector('[class*=close],[data-icon=close],[aria-label=close i]')
}

export const kContainerRoles = new Set([
  'tabpanel',
  'region',
  'dialog',
  'alertdialog',
  'group',
  'list',
  'grid',
  'table',
  'tree',
  'tablist',
  'menu',
  'menubar',
  'toolbar',
  'navigation',
  'main',
  'article',
  'document',
  'form',
  'complementary',
  'banner',
  'contentinfo',
  'feed',
  'log',
])

/** A clickable thing whose own name says it collapses or expands something (a sidebar's « button). */
export function togglesSomething(el: Element, role: string): boolean {
  if (role !== 'button' && role !== 'link' && role !== '' && role !== 'generic') return false
  return kToggleName.test(saysItDoes(el).slice(0, 40))
}

/** The role of the control a label toggles (a switch's form label is not a checkbox). */
export function labelledRole(el: Element): string {
  const control = el.localName === 'label' ? (el as HTMLLabelElement).control : null
  return control ? roleOf(control) : ''
}

/** Whether the element is of the kind a role word names. */
export function fitsKind(kind: ControlKind, el: Element, role: string, labels: FieldLabels): boolean {
  switch (kind) {
    case 'textbox':
      // A date or time picker's input is a textbox to ARIA, not what "the text field" means. A file
      // input has no ARIA role, yet people call it "the CV file field" or "the file input".
      if (el.localName === 'input' && el.getAttribute('type') === 'file') return true
      return (
        (role === 'textbox' || role === 'searchbox') &&
        !(
          el.localName === 'input' &&
          (kDateTypes.test(el.getAttribute('type') ?? '') || el.closest(`${kDateWidget},${kTimeWidget}`))
        )
      )
    case 'textarea':
      return el.localName === 'textarea' || el.getAttribute('aria-multiline') === 'true'
    case 'searchbox':
      return (
        role === 'searchbox' ||
        ((role === 'textbox' || role === 'combobox') && /search|搜索|查询|(^|\s)q(\s|$)/.test(fieldWords(el, labels)))
      )
    case 'checkbox':
      return (
        (role === 'checkbox' && !el.closest(kSwitchWrap)) ||
        el.matches('.el-checkbox,.ant-checkbox-wrapper') ||
        (labelledRole(el) === 'checkbox' && !(el as HTMLLabelElement).control?.closest(kSwitchWrap))
      )
    case 'radio':
      return role === 'radio' || el.matches('.el-radio,.ant-radio-wrapper') || labelledRole(el) === 'radio'
    case 'combobox':
    case 'listbox':
      // A colour picker is "the color picker" as a date picker is a picker.
      return (
        role === 'combobox' ||
        role === 'listbox' ||
        el.matches(kFieldWidget) ||
        el.matches(kColorPicker) ||
        isDropdownToggle(el)
      )
    case 'menuitem':
      return role.startsWith('menuitem') || el.matches('.n-dropdown-option,.el-sub-menu__title,.ant-menu-submenu-title')
    case 'tab':
      return role === 'tab' || el.matches('.n-tabs-tab')
    case 'spinbutton':
      return role === 'spinbutton' || (el.localName === 'input' && !!el.closest(kNumberWidget))
    case 'switch':
      return (
        role === 'switch' || el.matches('.el-switch,.ant-switch') || (role === 'checkbox' && !!el.closest(kSwitchWrap))
      )
    case 'date': {
      if (el.localName !== 'input') return false
      const type = el.getAttribute('type') ?? ''
      if (kDateTypes.test(type)) return true
      if (role !== 'textbox' && role !== 'combobox') return false
      return (!!el.closest(kDateWidget) && !el.closest(kTimeWidget)) || /date|日期/.test(fieldWords(el, labels))
    }
    case 'time': {
      if (el.localName !== 'input') return false
      if (kTimeTypes.test(el.getAttribute('type') ?? '')) return true
      if (role !== 'textbox' && role !== 'combobox') return false
      return !!el.closest(kTimeWidget) || /time|时间/.test(fieldWords(el, labels))
    }
    case 'collapsible':
      // A menu or dropdown trigger also says aria-expanded; it opens a popup, not a section.
      return (
        el.matches(kCollapsible) ||
        togglesSomething(el, role) ||
        (el.hasAttribute('aria-expanded') &&
          (role === 'button' || role === 'heading' || role === 'treeitem') &&
          !el.hasAttribute('aria-haspopup') &&
          !el.matches('.dropdown-toggle,[data-bs-toggle=dropdown],[data-toggle=dropdown]'))
      )
    case 'close':
      return isCloseControl(el, role)
    case 'option':
      // People call radios options ("the Male option").
      return (
        role === 'option' ||
        role === 'radio' ||
        el.matches('.el-radio,.ant-radio-wrapper') ||
        labelledRole(el) === 'radio'
      )
    case 'slider':
      return role === 'slider' || isSliderHandle(el)
    case 'image':
      return role === 'img' || el.localName === 'img'
    case 'editor':
      return ((el as HTMLElement).isContentEditable && el.hasAttribute('contenteditable')) || el.matches(kEditor)
    default:
      return role === kind
  }
}

/**
 * 1 when the element fits every role word (any kind within each), kGenericFit for a plain
 * clickable asked for as a link or button, else 0; 0.5 when no kind is named.
 */
export function kindFit(q: Descriptor, el: Element, role: string, labels: FieldLabels): number {
  const groups = q.kindGroups ?? [q.kinds]
  if (!groups.length) return 0.5
  let fit = 1
  let close: boolean | undefined
  for (const g of groups) {
    if (g.some((k) => fitsKind(k, el, role, labels))) continue
    // A close control is whatever clickable thing it is drawn as ("关闭按钮" on a span.close).
    // So is a control that collapses something ("the collapse button" on a titled div).
    if (
      g.every((k) => kClickKinds.has(k)) &&
      (close ??= fitsKind('close', el, role, labels) || togglesSomething(el, role))
    )
      continue
    if ((role === '' || role === 'generic') && g.some((k) => kClickKinds.has(k))) fit = Math.min(fit, kGenericFit)
    else return 0
  }
  return fit
}

/** A role-only descriptor: nothing to read but the kind (`the text field`, `输入框`, `the x`). */
export function roleOnly(q: Descriptor): boolean {
  return q.kinds.length > 0 && (!q.quoted || kGlyph.test(q.quoted)) && q.tokens.every((t) => q.kindWords.includes(t))
}

/** The state the descriptor asks for, read on the element or the control it wraps; false when it differs. */
export function stateFits(q: Descriptor, el: Element): boolean {
  // A label's state is its control's ("the unchecked checkbox" on a Bootstrap label).
  if (el.localName === 'label' && (el as HTMLLabelElement).control) el = (el as HTMLLabelElement).control!
  for (const [name, want] of Object.entries(q.state) as Array<[keyof Descriptor['state'], boolean]>) {
    let has: boolean | 'mixed' | undefined | null
    if (name === 'empty') has = isEmpty(el)
    else if (name === 'checked') has = checkedState(el)
    else if (name === 'expanded' && el.localName === 'summary')
      has = (el.parentElement as HTMLDetailsElement | null)?.open
    else has = stateOf(el, name)
    // Element Plus marks an open collapse header by class only.
    if (name === 'expanded' && has === undefined && el.matches('.el-collapse-item__header'))
      has = el.classList.contains('is-active')
    // A state the element does not declare is not evidence either way.
    if (has === undefined || has === null) continue
    if ((has === true) !== want) return false
  }
  return true
}

/** No value yet: a field's value, a contenteditable's text, a select with no option chosen; undefined for other elements. */
export function isEmpty(el: Element): boolean | undefined {
  if (el.localName === 'input' || el.localName === 'textarea') return (el as HTMLInputElement).value === ''
  if (el.localName === 'select') return (el as HTMLSelectElement).value === ''
  if ((el as HTMLElement).isContentEditable) return !normalize(el.textContent)
  return undefined
}

export const kPartWords: Record<PartWord, RegExp> = {
  month: /month|(?:^|[^a-z])(?:mm|mon)(?:[^a-z]|$)|月/,
  day: /(?:^|[^a-z])(?:day|dd)(?:[^a-z]|$)|日/,
  year: /year|yyyy|(?:^|[^a-z])yy(?:[^a-z]|$)|年/,
  'area code': /area|区号|\(\d{3}\)/,
  first: /first|given|fname|(?:^|[^a-z])名/,
  last: /last|family|surname|lname|姓/,
}

/** Whether a control shows the part word: its placeholder, name, id, label, or a select's first or chosen option. */
export function partFits(el: Element, part: PartWord): boolean {
  const sel = el.localName === 'select' ? (el as HTMLSelectElement) : null
  const text = [
    el.getAttribute('placeholder'),
    el.getAttribute('name'),
    el.id,
    el.getAttribute('aria-label'),
    el.getAttribute('title'),
    el.getAttribute('autocomplete'),
    sel?.options[0]?.text,
    sel?.selectedOptions[0]?.text,
    labelText(el),
  ]
    .join(' ')
    .toLowerCase()
  return kPartWords[part].test(text) || (part === 'area code' && el.getAttribute('maxlength') === '3')
}
