/**
 * The semantic rung of the ladder:
 * a descriptor as a person writes it — `the "Save" button`, `输入框`, `the second checkbox`,
 * `Reply on @nibh's post`, `对话框里的关闭按钮` — is parsed in core (src/core/page/descriptor.ts)
 * and scored against the page's interactive elements by what a person reads on them (accessible
 * name, placeholder, aria-label, title, the form label or row text next to them) and by their
 * kind (role, input type, a date or close control). Scope restricts to the named container,
 * ordinals count in reading order, states filter. Two near-equal matches are
 * AMBIGUOUS; when nothing passes the bar the best few still come back, marked weak, for the AI
 * fallback. Every candidate says why it scored (`why`).
 *
 * Speed (the locate bench: ≤ 10 ms on 5,000 elements; median ≤ 5 ms): a cheap substring
 * filter runs first over texts kept between calls until the page mutates (`PageIndex`), and
 * layout (visibility) is read only for the best-scored elements, never for all of them.
 */
import type { Candidate } from '../../core/exec'
import {
  parseDescriptor,
  tokenize,
  type ControlKind,
  type Descriptor,
  type PartWord,
  type PlaceRelation,
  type ScopeKind,
} from '../../core/page/descriptor'
import { translateDescriptor } from '../../core/page/glossary'
import { checkedState, nameOrGuess, normalize, roleOf, searchRoots, stateOf, type SearchRoot } from '../locators'
import { cssPath, isVisible, kAvaUiAttr } from './dom'
import { idOfElement, listedElements } from '../observe'
import {
  bareIconWords,
  codeWords,
  editablePlaceholder,
  FieldLabels,
  fieldWords,
  formLabel,
  glyphWords,
  isDropdownToggle,
  isSliderHandle,
  kFieldWidget,
  kInteractive,
  ownWords,
  partWords,
  peopleLabel,
  textAround,
  textBefore,
  treeRow,
  widgetPlaceholder,
} from '../words'

export { tokenize }

/** Pictures named by their alt text, outside any control (a control's picture is part of its name). */
const kPicture = 'img[alt]:not([alt=""])'
/** Colour pickers drawn by libraries (a native `input[type=color]` is its own kind: the colour field). */
const kColorPicker = '.el-color-picker,.ant-color-picker-trigger,.n-color-picker'
/** Number inputs of component libraries: a text input inside a stepper. */
const kNumberWidget = '.n-input-number,.el-input-number,.ant-input-number'

const kHan = /\p{Script=Han}/u
const kHanSpace = /(\p{Script=Han})\s+(?=\p{Script=Han})/gu

/** The parsed descriptor, plus the fields older callers read. */
export interface SemanticQuery extends Descriptor {
  text: string
  /** The kinds named, as a set. */
  roles: Set<string>
}

export function parseQuery(text: string): SemanticQuery {
  const d = parseDescriptor(text)
  return { ...d, text, roles: new Set(d.kinds) }
}

/** Weights of where a query word was found: the element's own label counts most. */
const kWeightOwn = 1
const kWeightAttr = 0.8
const kWeightNear = 0.6
const kWeightPartial = 0.5

/** Share of each part of the score; they add up to 1 (plus the exact-label bonus). */
const kShareRecall = 0.55
const kSharePrecision = 0.2
const kShareRole = 0.25
const kExactBonus = 0.15
/** Taken off an element of another kind than the description names. */
const kWrongKindPenalty = 0.15
/** A plain element with a click handler, asked for as a link or button: it may be one (a span styled as a link). */
const kGenericFit = 0.6
/** Every element of the kind named by a role-only descriptor scores this: all equal, so two are a tie. */
const kRoleOnlyScore = 0.9
/**
 * Below this a "match" is a shared common word or only text nearby: a description matched by the
 * text next to a field, with no role word to back it, scores 0.46 and must not win on its own.
 */
export const kMinScore = 0.5
/** Two visible candidates closer than this are too close to call: AMBIGUOUS, never a guess. */
export const kAmbiguityMargin = 0.05
/** Candidates handed to the AI fallback. */
export const kMaxCandidates = 5
/** Elements an ordinal may count through ("the 12th checkbox"). */
const kMaxOrdinal = 300

interface Scored {
  el: Element
  score: number
  label: string
  /** Which words matched which field, and the kind: the debug trace's explanation. */
  why: string
  /** Words said that are nowhere on or around it (Latin words; Chinese pairs cross word bounds). */
  missing?: number
  /** A word said is on the element itself (its name, attributes, kind), not only around it. */
  anchored?: boolean
}

/** The element a person would click for a hidden native control (Element Plus checkbox input). */
export function visibleProxy(el: Element): Element | null {
  const box = el.localName === 'select' ? customSelectBox(el) : null
  if (box) return box
  if (isVisible(el)) return el
  const proxy = el.closest(
    'label,.el-switch,.ant-switch,.el-checkbox,.el-radio,.ant-checkbox-wrapper,.ant-radio-wrapper,.el-select,.ant-select',
  )
  if (proxy && isVisible(proxy)) return proxy
  const label = (el as HTMLInputElement).labels?.[0]
  return label && isVisible(label) ? label : null
}

/**
 * The visible box a select library draws over a hidden native select, in the markup each
 * library's docs show: Select2 and Chosen put their container right after the select,
 * Tom Select and Selectize likewise, Bootstrap-select wraps the select and adds a toggle button.
 * That box is what a person calls "the Country dropdown".
 */
function customSelectBox(select: Element): Element | null {
  const next = select.nextElementSibling
  const box =
    (next?.matches('.select2-container,.select2') && next.querySelector('.select2-selection')) ||
    (next?.matches('.chosen-container') && next.querySelector('.chosen-single,.chosen-choices')) ||
    (next?.matches('.ts-wrapper,.selectize-control') && next.querySelector('.ts-control,.selectize-input')) ||
    select.closest('.bootstrap-select')?.querySelector('.dropdown-toggle') ||
    null
  return box && isVisible(box) ? box : null
}

const kFieldKinds = new Set<ControlKind>([
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
function isFieldEl(el: Element, role: string): boolean {
  if (el.localName === 'input')
    return !/^(submit|button|reset|image|checkbox|radio|file)$/i.test(el.getAttribute('type') ?? '')
  return (
    el.localName === 'select' ||
    el.localName === 'textarea' ||
    /^(combobox|textbox|searchbox|spinbutton|slider|listbox)$/.test(role)
  )
}

const kNoTokens: ReadonlySet<string> = new Set()

function tokensOf(text: string): Set<string> {
  let set = tokenCache.get(text)
  if (!set) {
    set = withAbbreviations(tokenize(text))
    tokenCache.set(text, set)
  }
  return set
}

/** Words pages shorten in labels and column headers ("Qty"): the word a person says for each. */
const kAbbreviations: Record<string, string> = {
  qty: 'quantity',
  amt: 'amount',
  desc: 'description',
  addr: 'address',
  tel: 'phone',
  num: 'number',
  no: 'number',
  pwd: 'password',
  msg: 'message',
  img: 'image',
  pic: 'picture',
  dob: 'birthday',
  fname: 'first',
  lname: 'last',
  dept: 'department',
  org: 'organization',
}

/** A text's tokens with the full word of each abbreviation among them. */
function withAbbreviations(tokens: string[]): Set<string> {
  const set = new Set(tokens)
  for (const t of tokens) if (kAbbreviations[t]) set.add(kAbbreviations[t])
  return set
}

/** Tokens of the text around an element: row, form item label, previous text (weight kWeightNear). */
function nearTokens(el: Element, rowCache: Map<Element, string>): Set<string> {
  return tokensOf(textAround(el, rowCache))
}

/** Tokens of a field's label[for] text and widget placeholder (its own name, weight kWeightOwn). */
function fieldLabelTokens(el: Element, labels: FieldLabels): Set<string> {
  return tokensOf(`${labels.textFor(el)} ${widgetPlaceholder(el)} ${formLabel(el)}`.toLowerCase())
}

/** Token sets of texts seen in this page (row texts repeat for every control in the row). */
const tokenCache = new Map<string, Set<string>>()
/** Bounded so a long session on a changing page does not grow it without end. */
const kTokenCacheMax = 5_000

const kDateTypes = /^(date|datetime-local|month|week)$/
const kTimeTypes = /^(time|datetime-local)$/
const kDateWidget = '.el-date-editor,.ant-picker,.n-date-picker,.v-date-picker,[class*=datepicker],[class*=date-picker]'
const kTimeWidget =
  '.el-date-editor--time,.el-date-editor--time-select,.ant-picker-time,.n-time-picker,[class*=timepicker],[class*=time-picker]'
/** Editors' editable roots: Quill, ProseMirror (Tiptap), TinyMCE's inline body, CKEditor 5. */
const kEditor = '.ql-editor,.ProseMirror,.mce-content-body,.ck-editor__editable'
/** A checkbox drawn as a switch (MUI's Switch, Bootstrap 4's custom switch): a switch to a person. */
const kSwitchWrap = '.MuiSwitch-root,.form-switch,.custom-switch'
const kCollapsible =
  'summary,.el-collapse-item__header,.ant-collapse-header,.accordion-button,.ui-accordion-header,.n-collapse-item__header,.v-expansion-panel-title'
/** Class names of close controls across libraries (`.close`, `btn-close`, `el-dialog__headerbtn`, `ant-modal-close`). */
const kCloseClass = /(^|[\s_-])(close|closer|dismiss)([\s_-]|$)|headerbtn|btn-close/i
const kCloseName =
  /^(?:close|dismiss|x|×|✕|✖|✗|╳)(?:\s+(?:this\s+)?(?:dialog|modal|window|panel|popup|drawer|message|notification|alert|tab))?$|^关闭(?:此)?(?:对话框|弹窗|窗口|提示)?$/i
const kGlyph = /^(?:x|×|✕|✖|✗|╳)$/i
/** A control named for showing or hiding something ("Collapse sidebar", "展开全部"): it is what "the collapse button" means. */
const kToggleName = /^(?:collapse|expand|toggle|fold|unfold|收起|展开|折叠)(?![\p{L}])/iu
/** Kinds that any clickable thing may be, even one without a role (a span with a click handler). */
const kClickKinds = new Set<ControlKind>(['button', 'link', 'menuitem', 'tab', 'close'])

function classOf(el: Element): string {
  return typeof el.className === 'string' ? el.className : (el.getAttribute('class') ?? '')
}

function isCloseControl(el: Element, role: string): boolean {
  if (role !== 'button' && role !== 'link' && role !== '' && role !== 'generic' && role !== 'img') return false
  if (kCloseClass.test(classOf(el))) return true
  const short = normalize(el.textContent)
  if (short.length > 24) return false
  const name = normalize(el.getAttribute('aria-label') || el.getAttribute('title') || short)
  if (kCloseName.test(name)) return true
  // An icon-only button whose icon is a close icon.
  return !short && !!el.querySelector('[class*=close],[data-icon=close],[aria-label=close i]')
}

const kSectionNumber = /^(?:\d+\.)+\d*\s+/
const kContainerRoles = new Set([
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

/**
 * A word with its common English ending cut ("invitation" and "invite" → "invit", "emails" →
 * "email"), for a partial match between forms of one word; Chinese and short words unchanged.
 */
function stem(w: string): string {
  if (w.length < 5 || kHan.test(w)) return w
  const cut = w.replace(/(?:ations?|ings?|ed|es|s|e)$/, '')
  return cut.length >= 4 ? cut : w
}

/** A clickable thing whose own name says it collapses or expands something (a sidebar's « button). */
function togglesSomething(el: Element, role: string): boolean {
  if (role !== 'button' && role !== 'link' && role !== '' && role !== 'generic') return false
  return kToggleName.test(
    normalize(el.getAttribute('aria-label') || el.getAttribute('title') || el.textContent).slice(0, 40),
  )
}

/** The role of the control a label toggles (a switch's form label is not a checkbox). */
function labelledRole(el: Element): string {
  const control = el.localName === 'label' ? (el as HTMLLabelElement).control : null
  return control ? roleOf(control) : ''
}

/** Whether the element is of the kind a role word names. */
function fitsKind(kind: ControlKind, el: Element, role: string, labels: FieldLabels): boolean {
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
function kindFit(q: Descriptor, el: Element, role: string, labels: FieldLabels): number {
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
function roleOnly(q: Descriptor): boolean {
  return q.kinds.length > 0 && (!q.quoted || kGlyph.test(q.quoted)) && q.tokens.every((t) => q.kindWords.includes(t))
}

/** The state the descriptor asks for, read on the element or the control it wraps; false when it differs. */
function stateFits(q: Descriptor, el: Element): boolean {
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
function isEmpty(el: Element): boolean | undefined {
  if (el.localName === 'input' || el.localName === 'textarea') return (el as HTMLInputElement).value === ''
  if (el.localName === 'select') return (el as HTMLSelectElement).value === ''
  if ((el as HTMLElement).isContentEditable) return !normalize(el.textContent)
  return undefined
}

export function scoreElement(
  q: SemanticQuery | Descriptor,
  el: Element,
  rowCache = new Map<Element, string>(),
  labels = new FieldLabels(),
): Scored | null {
  if (tokenCache.size > kTokenCacheMax) tokenCache.clear()
  const role = roleOf(el)
  // A focusable container (a tab panel named by its tab, a scrolling region) is not a control.
  if (kContainerRoles.has(role)) return null
  const fit = kindFit(q, el, role, labels)
  if (!stateFits(q, el)) return null
  const bits = ownWords(el, role, labels)
  const own = bits.join(' ')
  const label = own.slice(0, 50) || normalize(el.textContent).slice(0, 50) || peopleLabel(el)
  const kindNote = q.kinds.length ? `kind ${q.kinds.join('/')} ${fit === 1 ? 'yes' : fit > 0 ? 'maybe' : 'no'}` : ''
  if (roleOnly(q)) {
    if (fit < 1) return null
    return { el, score: kRoleOnlyScore, label, why: `${kindNote} (role only)` }
  }
  const ownLower = own.toLowerCase()
  const ownTokens = withAbbreviations(tokenize(own))
  const title = el.getAttribute('title')
  // A tooltip beside a name counts as an attribute does, not as the name (ownBits).
  const icon = `${bareIconWords(el)} ${partWords(el, role)} ${glyphWords(el)}`.trim()
  const attrs = `${title && !bits.includes(normalize(title)) ? `${codeWords(el)} ${title.toLowerCase()}` : codeWords(el)}${icon ? ` ${icon}` : ''}`
  const attrTokens = new Set(tokenize(attrs))
  let near: Set<string> | undefined
  let sum = 0
  let hitsOwn = 0
  let missing = 0
  const hits: string[] = []
  for (const t of q.tokens) {
    let w = 0
    let where = ''
    if (ownTokens.has(t)) {
      w = kWeightOwn
      hitsOwn++
      where = 'name'
    } else if (fit === 1 && q.kindWords.includes(t)) {
      w = kWeightOwn
      where = 'kind'
    } else if (attrTokens.has(t)) {
      w = kWeightAttr
      where = 'attr'
    } else {
      // Five controls of a row share its text: tokenized once (tokenCache).
      near ??= tokensOf(textAround(el, rowCache))
      if (near.has(t)) {
        w = kWeightNear
        where = 'near'
      } else if (
        t.length >= 3 &&
        (ownLower.includes(t) || attrs.includes(t) || [...ownTokens].some((o) => stem(o) === stem(t)))
      ) {
        w = kWeightPartial
        where = 'part'
      }
    }
    if (where) hits.push(`${t}→${where}`)
    else if (!kHan.test(t)) missing++
    sum += w
  }
  const quoted = q.quoted?.toLowerCase()
  const glyphFits = !!quoted && kGlyph.test(quoted) && fit === 1
  const quotedIn = !!quoted && (ownLower.includes(quoted) || glyphFits)
  if (q.tokens.length && sum === 0 && !quotedIn) return null
  const recall = q.tokens.length ? sum / q.tokens.length : quotedIn ? 1 : 0
  const precision = ownTokens.size ? hitsOwn / ownTokens.size : quotedIn ? 1 : 0
  if (!q.tokens.length && !quoted && fit < 1) return null
  const stripped = quoted ?? q.tokens.filter((t) => !(fit === 1 && q.kindWords.includes(t))).join(' ')
  const wanted = normalize(stripped).toLowerCase().replace(kHanSpace, '$1')
  // Exact against any one of its names: a link's text "modules" with a title "Python Module Index".
  // A section number is not part of the name a person says ("4.7. Defining Functions").
  const exact =
    glyphFits ||
    (wanted &&
      (wanted === ownLower ||
        bits.some((b) => b.toLowerCase().replace(kHanSpace, '$1').replace(kSectionNumber, '') === wanted)))
      ? kExactBonus
      : 0
  const quotedMiss = quoted && !quotedIn ? 0.2 : 0
  // Named as another kind ("the email field" on a checkbox): the words alone must not carry it.
  const wrongKind = q.kinds.length && fit === 0 ? kWrongKindPenalty : 0
  let score = Math.max(
    0,
    kShareRecall * recall + kSharePrecision * precision + kShareRole * fit + exact - quotedMiss - wrongKind,
  )
  // Half of what was said is missing ("the project name field" on "Describe the project"): a guess, not a match.
  if (q.tokens.length >= 2 && recall <= 0.5) score = Math.min(score, kMinScore - 0.01)
  // A role word said is a hard filter between fields and what is clicked: "搜索按钮" is no text
  // box, "the email field" no button, however well the words fit. A file input is both: people
  // call it "the CV file field" as often as "the Choose file button".
  const fileInput = el.localName === 'input' && /^file$/i.test(el.getAttribute('type') ?? '')
  if (q.kinds.length && fit === 0 && !fileInput && q.kinds.every((k) => kFieldKinds.has(k)) !== isFieldEl(el, role))
    score = Math.min(score, kMinScore - 0.01)
  // A word said is nowhere on the element, and the element shows words not said either
  // ("Built-in Functions" on "Other Built-in Types"): neither names the other, so it is a guess.
  // Words only near it do not help when its own name is another name in part ("functions" under
  // the heading beside "Other Built-in Types").
  // A widget part's own name is the part's ("decrease number"); the field it belongs to is named
  // around it ("数量的减少按钮"), so words near it count for it.
  const present =
    hitsOwn && !/\b(?:spinner|slider)\b/.test(icon) ? hits.filter((h) => !h.endsWith('→near')).length : hits.length
  if (
    !quoted &&
    !exact &&
    present < q.tokens.length &&
    tokenize(own, true).some((t) => !/^\d+$/.test(t) && !q.tokens.includes(t))
  )
    score = Math.min(score, kMinScore - 0.01)
  const why = [
    kindNote,
    hits.join(' '),
    quoted ? `"${q.quoted}" ${quotedIn ? (exact ? 'exact' : 'in name') : 'missing'}` : '',
  ]
    .filter(Boolean)
    .join('; ')
  return { el, score, label, why, missing, anchored: hits.some((h) => !h.endsWith('→near')) }
}

export interface SemanticResult {
  /** The unique best element, or none when nothing fits or two fit too well. */
  best?: Element
  ambiguous: boolean
  /** Best first. When nothing passed the bar, the nearest by kind and text, each marked `weak`. */
  candidates: Candidate[]
  /** Elements of the candidates, parallel to `candidates`. */
  elements: Element[]
  /** Why the best scored (or, on a miss, the first candidate): for the debug trace. */
  why?: string
}

export function candidateId(el: Element): string {
  return idOfElement(el) ?? `css:${cssPath(el)}`
}

/**
 * The interactive elements under `root`, in document order: those `kInteractive` matches and those
 * Observe listed for their listeners or cursor, which no selector can find because
 * Ava writes nothing into the page.
 */
export function interactiveIn(root: Document | Element | ShadowRoot): Element[] {
  const found = [...root.querySelectorAll(kInteractive)]
  const known = new Set(found)
  const extra = listedElements().filter((el) => !known.has(el) && el.isConnected && root.contains(el))
  if (!extra.length) return found
  return [...found, ...extra].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
}

const kScopeSelectors: Record<Exclude<ScopeKind, 'named'>, string> = {
  main: 'main,[role=main],article,.body,#content,.content,.main',
  alert:
    '[role=alert],[role=status],.alert,.el-alert,.ant-alert,.el-notification,.el-message,.ant-notification-notice,.ant-message-notice,.toast,.n-alert,.n-notification',
  tag: '.el-tag,.ant-tag,.n-tag,.badge,.chip,.v-chip,.tag',
  dialog:
    'dialog,[role=dialog],[role=alertdialog],[aria-modal=true],.el-dialog,.el-message-box,.el-drawer,.ant-modal,.ant-drawer-content,.modal-dialog,.ui-dialog,.n-dialog,.n-modal,.v-dialog',
  row: 'tr,[role=row],li,.el-table__row,.ant-table-row,.list-group-item',
  form: 'form,[role=form],.el-form,.ant-form',
  table: 'table,[role=table],[role=grid],[role=treegrid],.el-table,.ant-table',
  menu: '[role=menu],[role=menubar],.el-menu,.ant-menu,.dropdown-menu,.ui-menu,.el-dropdown-menu,.ant-dropdown-menu,.n-dropdown-menu',
  list: 'ul,ol,[role=list],[role=listbox],[role=tree],.el-tree,.ant-tree',
  nav: 'nav,[role=navigation],.navbar,.el-menu,.ant-menu',
  header: 'header,[role=banner],.header,.el-header,.ant-layout-header',
  footer: 'footer,[role=contentinfo],.footer,.el-footer,.ant-layout-footer',
  sidebar: 'aside,[role=complementary],.sidebar,.el-aside,.ant-layout-sider,.sphinxsidebar',
  toolbar: '[role=toolbar],.toolbar,.btn-toolbar,.ql-toolbar,.tox-toolbar,.ck-toolbar',
}
/** Containers a person counts when no kind names them ("the first post", "the second card"). */
const kCountable =
  'article,[role=article],[role=listitem],li,tr,[class*=post],[class*=card],[class*=item],[class*=tweet]'
/** Ancestors climbed looking for the container a scope names. */
const kScopeDepth = 16

/**
 * The container of the scope that holds `el`, or null when it is outside it: the nearest ancestor
 * of the named kind (showing the name, when one is given), or for a container named by text only
 * (`@nibh's post`) the smallest ancestor showing the name.
 */
function scopeOf(el: Element, scope: NonNullable<Descriptor['scope']>, texts: Map<Element, boolean>): Element | null {
  const name = scope.name ? normalize(scope.name).toLowerCase().replace(kHanSpace, '$1') : ''
  const shows = (a: Element) => {
    let v = texts.get(a)
    if (v === undefined) {
      const attrs = `${a.getAttribute('aria-label') ?? ''} ${a.id} ${a.getAttribute('name') ?? ''} ${classOf(a)}`
        .toLowerCase()
        .replace(/[-_]+/g, ' ')
      // Attribute words count whole: a name "Bo" is not in the class "card-body".
      texts.set(
        a,
        (v = normalize(a.textContent).toLowerCase().replace(kHanSpace, '$1').includes(name) || showsWord(attrs, name)),
      )
    }
    return v
  }
  // "In the text" is the running text: a heading's link is the title's, not the text's.
  if (scope.kind === 'main' && el.closest('h1,h2,h3,h4,h5,h6,[role=heading]')) return null
  const sel = scope.kind === 'named' ? null : kScopeSelectors[scope.kind]
  let n: Element | null = el.parentElement
  let sawKind = false
  for (let i = 0; n && i < kScopeDepth; i++, n = n.parentElement) {
    if (sel && !n.matches(sel)) continue
    sawKind = true
    if (scope.ordinal) {
      // "the first post": a container counted among its siblings of the same kind.
      if (!sel && !n.matches(kCountable)) continue
      return nthOfKind(n, sel ?? kCountable, scope.ordinal) ? n : null
    }
    // A toolbar titled by the text just before it ("the Signature toolbar": the label over an editor's toolbar).
    if (
      !name ||
      shows(n) ||
      (scope.kind === 'toolbar' && textBefore(n).toLowerCase().replace(kHanSpace, '$1').includes(name))
    )
      return n
    // The nearest row (tag, dialog…) is the one it is in: a table holding every row is not "the row of 张三".
    if (sel) return null
  }
  // A kind the page does not mark up ("the row of 张三" in a grid of divs): the text decides.
  // Where the page has such containers, one outside them all is not in "the order form".
  if (sel && name && !sawKind && !el.ownerDocument.querySelector(sel))
    return scopeOf(el, { kind: 'named', name: scope.name }, texts)
  return null
}

/**
 * Whether attribute words show a name: as a whole word for a Latin name ("Bo" is not in
 * "card body"), anywhere for Chinese, which has no spaces between words.
 */
function showsWord(text: string, name: string): boolean {
  if (!/^[a-z0-9]/i.test(name) || !/[a-z0-9]$/i.test(name)) return text.includes(name)
  let at = text.indexOf(name)
  while (at >= 0) {
    const before = text[at - 1] ?? ' '
    const after = text[at + name.length] ?? ' '
    if (!/[a-z0-9]/i.test(before) && !/[a-z0-9]/i.test(after)) return true
    at = text.indexOf(name, at + 1)
  }
  return false
}

/** Whether a container is the nth of its kind among its siblings (rows of a table body), hidden ones not counted. */
function nthOfKind(n: Element, sel: string, ordinal: number): boolean {
  // A table's header row is not "the first row": people count the rows of data.
  const header = (c: Element) =>
    c.parentElement?.localName === 'thead' || (c.localName === 'tr' && !c.querySelector('td'))
  if (header(n)) return false
  const siblings = [...(n.parentElement?.children ?? [])].filter(
    (c) =>
      c.matches(sel) && !header(c) && c.getAttribute('aria-hidden') !== 'true' && (c as HTMLElement).offsetHeight > 1,
  )
  const at = ordinal > 0 ? ordinal - 1 : siblings.length + ordinal
  return siblings[at] === n
}

/** Open modal layers: what is behind them cannot be clicked, so a match inside one is what is meant. */
const kModal =
  '[aria-modal=true],dialog[open],.el-overlay-dialog,.el-overlay-message-box,.ant-modal-wrap,.modal.show,.n-modal-container'

function openModal(doc: Document): Element | null {
  const all = [...doc.querySelectorAll(kModal)].filter((m) => isVisible(m) || [...m.children].some(isVisible))
  return all[all.length - 1] ?? null
}

/** Whether a click at the element's centre would land on the modal layer instead. */
function coveredBy(el: Element, modal: Element): boolean {
  const r = el.getBoundingClientRect()
  if (!r.width || !r.height) return false
  const hit = el.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
  return !!hit && modal.contains(hit)
}

/**
 * Two copies of one control (the top and bottom navigation bars of a documentation page): same
 * tag, role and text, and the same destination — link target, or form, name and type. Clicking
 * either does the same, so they are not an ambiguity. Two "Delete" buttons in two rows are not
 * copies: nothing says they do the same.
 */
function sameAction(a: Element, b: Element): boolean {
  if (a.localName !== b.localName || roleOf(a) !== roleOf(b)) return false
  // Two copies of one picture (a logo in the top and the bottom bar) are one thing to a person.
  if (a.localName === 'img')
    return a.getAttribute('src') === b.getAttribute('src') && a.getAttribute('alt') === b.getAttribute('alt')
  // Two links to one page do the same whatever they say ("previous" and the page's title in a
  // documentation page's navigation bar); a link that is only a script hook ("#") does not count.
  const hrefA = a.getAttribute('href')
  if (a.localName === 'a' && hrefA && !/^(#$|javascript:)/i.test(hrefA))
    return (
      (a as HTMLAnchorElement).href === (b as HTMLAnchorElement).href ||
      sameSpot(a as HTMLAnchorElement, b as HTMLAnchorElement)
    )
  if (
    normalize(a.textContent) !== normalize(b.textContent) ||
    a.getAttribute('aria-label') !== b.getAttribute('aria-label') ||
    (a as HTMLInputElement).value !== (b as HTMLInputElement).value
  )
    return false
  const href = a.getAttribute('href')
  if (a.localName === 'a')
    return !!href && !/^(#$|javascript:)/i.test(href) && (a as HTMLAnchorElement).href === (b as HTMLAnchorElement).href
  const fa = (a as HTMLInputElement).form
  const fb = (b as HTMLInputElement).form
  // Two fields of one form without names (Check-in and Check-out dates) are two fields, not copies;
  // two unnamed submit buttons of one form (Sphinx's "Go") are.
  const filled = a.localName !== 'button' && !/^(submit|button|reset|image)$/i.test(a.getAttribute('type') ?? '')
  if (fa && fb)
    return (
      (!filled || !!a.getAttribute('name')) &&
      fa.action === fb.action &&
      fa.method === fb.method &&
      a.getAttribute('name') === b.getAttribute('name') &&
      a.getAttribute('type') === b.getAttribute('type')
    )
  return !!a.id && a.id === b.id
}

/**
 * Two links into this page that land on one place: Sphinx's in-text `#truth` is an empty anchor
 * at the start of the `#truth-value-testing` section the sidebar links to.
 */
function sameSpot(a: HTMLAnchorElement, b: HTMLAnchorElement): boolean {
  const here = (l: HTMLAnchorElement) => l.hash && l.href.split('#')[0] === l.ownerDocument.URL.split('#')[0]
  if (!here(a) || !here(b) || !normalize(a.textContent) || normalize(a.textContent) !== normalize(b.textContent))
    return false
  const spot = (l: HTMLAnchorElement) => {
    let t = l.ownerDocument.getElementById(decodeURIComponent(l.hash.slice(1)))
    // An empty anchor that opens its parent marks the parent.
    while (t && !normalize(t.textContent) && t.parentElement?.firstElementChild === t) t = t.parentElement
    return t
  }
  const sa = spot(a)
  return !!sa && sa === spot(b)
}

/** Reading order: top to bottom, then left to right among boxes on the same line. */
function readingOrder(a: Element, b: Element): number {
  const ra = a.getBoundingClientRect()
  const rb = b.getBoundingClientRect()
  if (ra.bottom <= rb.top + 1) return -1
  if (rb.bottom <= ra.top + 1) return 1
  return ra.left - rb.left || ra.top - rb.top
}

interface Entry {
  el: Element
  field: boolean
  /** `haystack` up to the value, and after it; lower case. */
  before: string
  after: string
  /** The value `hay` was made with; a typed value changes no attribute, so it is re-read per call. */
  value: string
  hay: string
  /** `hay` with spaced Chinese joined ("提 交"), made on first need. */
  hayHan?: string
  own?: ReadonlySet<string>
  near?: Set<string>
  /** Its role, read on first need (DOM-only, so valid as long as the entry). */
  role?: string
}

/**
 * The interactive elements of a document's search roots with their stage-1 texts, kept between
 * calls (the locate bench: a locate that re-reads 5,000 elements' text and rows costs 25–40 ms; one
 * that reuses them costs a few). Valid while no search root has mutated: one MutationObserver
 * watches every root (document, open shadow roots, same-origin frames) and `takeRecords()` is
 * asked before each use, so a change made in the same task as the call is seen too. The root
 * list itself is walked afresh on every call, because a shadow root attached to an element that
 * was already in the page (a custom element upgraded late) mutates nothing. The observer
 * disconnects at the first change: one record is enough to drop the index, and a page that keeps
 * changing pays for no more.
 */
class PageIndex {
  private roots: SearchRoot[] = []
  entries: Entry[] = []
  /** Rows' spaced text, shared by the five controls of a row. */
  rowCache = new Map<Element, string>()
  labels = new FieldLabels()
  private observer: MutationObserver | null = null
  private dirty = true

  /** The entries for these roots, rebuilt when a root changed or the root list differs. */
  current(roots: SearchRoot[]): Entry[] {
    if (this.observer && this.observer.takeRecords().length) this.invalidate()
    if (this.dirty || roots.length !== this.roots.length || roots.some((r, i) => r !== this.roots[i])) this.build(roots)
    return this.entries
  }

  private invalidate(): void {
    this.dirty = true
    this.observer?.disconnect()
    this.observer = null
  }

  private build(roots: SearchRoot[]): void {
    this.invalidate()
    this.roots = roots
    this.entries = []
    this.rowCache = new Map()
    this.labels = new FieldLabels()
    const seen = new Set<Element>()
    for (const root of roots) {
      // Pictures with words a person reads (alt text) are named things too: "the Python logo".
      const pictures = [...root.querySelectorAll(kPicture)].filter((p) => !p.closest(kInteractive))
      for (const el of [...interactiveIn(root), ...pictures]) {
        if (seen.has(el)) continue
        seen.add(el)
        // A label is a target only for the checkbox or radio it toggles; a text field's label is its name.
        if (
          el.localName === 'label' &&
          !/^(checkbox|radio)$/.test(((el as HTMLLabelElement).control as HTMLInputElement | null)?.type ?? '')
        )
          continue
        const field =
          /^(input|select|textarea)$/.test(el.localName) ||
          el.matches(`[role=combobox],[role=switch],[role=checkbox],[role=radio],${kFieldWidget}`)
        const text = el.textContent ?? ''
        const extra = `${bareIconWords(el, text)} ${partWords(el, el.getAttribute('role') ?? '')} ${glyphWords(el)} ${el.hasAttribute('contenteditable') || el.getAttribute('role') === 'textbox' ? editablePlaceholder(el) : ''}`
        const before =
          `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('placeholder') ?? ''} ${el.getAttribute('title') ?? ''} ${el.getAttribute('name') ?? ''} ${el.id} ${extra} `.toLowerCase()
        // An icon-only control shows no text: its guessed name stands in (dom/words/accname.ts).
        const after = ` ${text.trim() || field ? text : nameOrGuess(el, roleOf(el))}`.toLowerCase()
        const value = valueOf(el)
        this.entries.push({ el, field, before, after, value, hay: before + value.toLowerCase() + after })
      }
    }
    const MO = roots[0] ? viewOf(roots[0]).MutationObserver : undefined
    if (!MO) return
    const observer = new MO(() => this.invalidate())
    for (const root of roots)
      observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true })
    this.observer = observer
    this.dirty = false
  }
}

function valueOf(el: Element): string {
  return `${(el as HTMLInputElement).value ?? ''}`
}

function viewOf(root: SearchRoot): Window & typeof globalThis {
  const doc = root.nodeType === 9 ? (root as Document) : root.ownerDocument
  return (doc?.defaultView ?? window) as Window & typeof globalThis
}

const indexes = new WeakMap<Document, PageIndex>()

/** Keeps the first of elements that are one target: a label and its control, a wrapper and what it wraps. */
function distinctVisible(
  list: Scored[],
  cap: number,
  taken = new Set<Element>(),
  out: Scored[] = [],
  expander = false,
  checkbox = false,
): Scored[] {
  for (const s of list) {
    if (out.length >= cap) break
    if (s.el.closest(`[${kAvaUiAttr}]`)) continue
    let proxy = visibleProxy(s.el)
    // A tree item is acted on by its row; "collapse X" by the row's expand arrow, if it has one.
    const proxyRole = proxy ? roleOf(proxy) : ''
    const row = proxy && (proxyRole === 'treeitem' || proxyRole === 'menuitem') ? treeRow(proxy) : null
    // "the Python checkbox in the tree": the checkbox of the item's row.
    if (row && isVisible(row))
      proxy =
        (expander && row.querySelector('[class*=expand],[class*=switcher],[class*=toggle],[class*=caret]')) ||
        (checkbox && row.querySelector('.el-checkbox,.ant-tree-checkbox,[role=checkbox],input[type=checkbox]')) ||
        row
    if (!proxy) continue
    const key = proxy.localName === 'label' ? ((proxy as HTMLLabelElement).control ?? proxy) : proxy
    if (taken.has(key) || taken.has(proxy)) continue
    taken.add(key)
    taken.add(proxy)
    const same = out.findIndex(
      (v) =>
        v.el.contains(proxy) ||
        proxy.contains(v.el) ||
        (v.el.localName === 'label' && (v.el as HTMLLabelElement).control === proxy),
    )
    if (same >= 0) {
      // A close icon inside its button: the button is the target.
      const kept = out[same]
      if (proxy.contains(kept.el) && !roleOf(kept.el) && roleOf(proxy)) out[same] = { ...s, el: proxy }
      continue
    }
    out.push({ ...s, el: proxy })
  }
  return out
}

function toCandidate(s: Scored, weak = false): Candidate {
  return {
    id: candidateId(s.el),
    label: s.label,
    score: Math.round(Math.min(1, s.score) * 100) / 100,
    why: s.why,
    ...(weak ? { weak: true } : {}),
  }
}

/**
 * Scores every interactive element of the page (all search roots) against the description; when
 * nothing fits as written, against its translation (a Chinese descriptor on an English page, or
 * the other way round: src/core/page/glossary.ts).
 */
export function semanticMatch(description: string, scope: Document = document): SemanticResult {
  const first = matchOne(description, scope)
  if (first.best || first.ambiguous) return first
  for (const other of translateDescriptor(description)) {
    const second = matchOne(other, scope)
    if (!second.best && !second.ambiguous) continue
    const note = `as "${other}"`
    return {
      ...second,
      why: `${second.why ?? ''} (${note})`,
      candidates: second.candidates.map((c) => ({ ...c, why: `${c.why ?? ''} (${note})` })),
    }
  }
  return first
}

function matchOne(description: string, scope: Document): SemanticResult {
  const q = parseQuery(description)
  const quoted = q.quoted?.toLowerCase()
  const needles = quoted ? [quoted, ...q.tokens] : q.tokens
  const han = needles.some((t) => kHan.test(t))
  let index = indexes.get(scope)
  if (!index) indexes.set(scope, (index = new PageIndex()))
  const entries = index.current(searchRoots(scope))
  const { rowCache, labels } = index
  const onlyRole = roleOnly(q)
  const scopeTexts = new Map<Element, boolean>()
  const containers = new Map<Element, Element | null>()
  const containerOf = (el: Element) => {
    let c = containers.get(el)
    if (c === undefined) containers.set(el, (c = q.scope ? scopeOf(el, q.scope, scopeTexts) : null))
    return c
  }
  const inScope = (el: Element) => !q.scope || !!containerOf(el)
  const fitOf = (e: Entry) => kindFit(q, e.el, (e.role ??= roleOf(e.el)), labels)
  // Stage 1, cheap: an upper bound of each element's score from the text it carries and the
  // text around it. Stage 2 scores fully, best bound first, and stops once no bound can reach
  // the ambiguity margin of the best score: on a page of thousands of controls only a few are
  // ever scored in full.
  const bounded: Array<{ el: Element; ub: number }> = []
  const roleUb = q.kinds.length === 0 ? 0.5 * kShareRole : kShareRole
  const whole = (quoted ?? q.tokens.join(' ')).toLowerCase()
  const glyph = !!quoted && kGlyph.test(quoted)
  // Nothing to match on (a step with no words): no scores, only the visible controls below.
  const nothingSaid = !needles.length && !q.kinds.length
  for (const e of nothingSaid ? [] : entries) {
    const el = e.el
    if (onlyRole) {
      if (fitOf(e) === 1 && inScope(el)) bounded.push({ el, ub: kRoleOnlyScore })
      continue
    }
    const value = valueOf(el)
    if (value !== e.value) {
      e.value = value
      e.hay = e.before + value.toLowerCase() + e.after
      e.hayHan = undefined
    }
    const hay = han ? (e.hayHan ??= e.hay.replace(kHanSpace, '$1')) : e.hay
    let sum = 0
    let fit: number | undefined
    for (const t of q.tokens) {
      if (hay.includes(t)) sum += kWeightOwn
      else if (q.kindWords.includes(t) && (fit ??= fitOf(e)) === 1) sum += kWeightOwn
      else {
        // A field's label[for] and widget placeholder are its own text, as in scoreElement.
        const own = (e.own ??= e.field ? fieldLabelTokens(el, labels) : kNoTokens)
        if (own.has(t)) sum += kWeightOwn
        else if ((e.near ??= nearTokens(el, rowCache)).has(t)) sum += kWeightNear
      }
    }
    // A quoted field label ("the 'E-mail' field") is the field's own text, as its label tokens are.
    const quotedIn =
      !!quoted &&
      (hay.includes(quoted) ||
        (glyph && (fit ??= fitOf(e)) === 1) ||
        (e.field && `${labels.textFor(el)} ${formLabel(el)}`.toLowerCase().includes(quoted)))
    if (needles.length && sum === 0 && !quotedIn) continue
    if (!inScope(el)) continue
    const recallUb = q.tokens.length ? sum / q.tokens.length : 1
    const exactUb = (whole && hay.includes(whole)) || (glyph && quotedIn) ? kExactBonus : 0
    bounded.push({ el, ub: kShareRecall * recallUb + kSharePrecision + roleUb + exactUb })
  }
  bounded.sort((a, b) => b.ub - a.ub)
  let scored: Scored[] = []
  const weakScored: Scored[] = []
  let best = 0
  let full = 0
  let i = 0
  for (; i < bounded.length; i++) {
    const { el, ub } = bounded[i]
    if (
      ub < kMinScore ||
      (full >= kMaxCandidates && ub < best - kAmbiguityMargin && !q.ordinal && !q.place && q.scope?.kind !== 'named')
    )
      break
    const s = scoreElement(q, el, rowCache, labels)
    full++
    if (!s) continue
    if (s.score < kMinScore) {
      weakScored.push(s)
      continue
    }
    scored.push(s)
    best = Math.max(best, s.score)
  }
  scored.sort((a, b) => b.score - a.score)
  // Every word said found on or around it beats a better score that lacks one of them entirely
  // ("the up arrow of Quantity": the arrow of the Quantity spinner, not another spinner's "up").
  if (scored.length > 1 && scored[0].missing) {
    const whole = scored.filter((s) => !s.missing && s.anchored)
    // The others stay candidates, below the margin: they are not a tie with what fits every word.
    const below = whole[0]?.score - kAmbiguityMargin - 0.01
    if (whole.length)
      scored = [
        ...whole,
        ...scored
          .filter((s) => !whole.includes(s))
          .map((s) => ({ ...s, score: Math.min(s.score, below), why: `${s.why}; a word said is missing` })),
      ]
  }
  // A modal dialog is open and covers the page: what is behind it cannot be clicked (unless the
  // scope says where). A dialog that says it is modal but lets clicks through does not count.
  if (!q.scope && scored.length > 1) {
    const modal = openModal(scope)
    const inside = modal ? scored.filter((s) => modal.contains(s.el)) : []
    const outside = scored.find((s) => !inside.includes(s))
    if (inside.length && outside && coveredBy(outside.el, modal!)) scored = inside
  }
  // A container named only by its text ("@nibh's post"): an element whose container strictly
  // holds another equal match's container is not in the named one, only near it (the feed, or
  // the page, shows the name too). Several matches in the same smallest container all stay.
  if (q.scope?.name && scored.length > 1) {
    const all = scored
    const kept = all.filter((s) => {
      const c = containerOf(s.el)
      return !all.some((o) => {
        if (o === s || o.score < s.score - kAmbiguityMargin || s.el.contains(o.el) || o.el.contains(s.el)) return false
        const oc = containerOf(o.el)
        return !!c && !!oc && c !== oc && c.contains(oc)
      })
    })
    if (kept.length) scored = kept
  }
  // "the Date of Birth month dropdown": of the controls under one label, the one showing the part.
  if (q.part && scored.length > 1) {
    const withPart = scored.filter((s) => partFits(s.el, q.part!))
    if (withPart.length) scored = withPart.map((s) => ({ ...s, why: `${s.why}; part ${q.part}` }))
  }
  // Layout is read only now, best first, until enough visible candidates are known.
  const visible = distinctVisible(
    scored,
    q.ordinal || q.place ? kMaxOrdinal : kMaxCandidates,
    undefined,
    undefined,
    q.kinds.includes('collapsible'),
    q.kinds.includes('checkbox'),
  )
  if (q.place) return placeMatch(q, visible, scope)
  if (visible.length) {
    const ties = visible.filter((s) => s.score >= visible[0].score - kAmbiguityMargin)
    // "a checkbox": any one of equals will do; the first in reading order, as a person would take.
    if (q.article && ties.length > 1 && !q.ordinal) {
      const first = ties.map((t) => t.el).sort(readingOrder)[0]
      const pick = ties.find((t) => t.el === first)!
      const why = `${pick.why}; "a": the first of ${ties.length} in reading order`
      const rest = visible.filter((s) => s !== pick).slice(0, kMaxCandidates - 1)
      return {
        best: first,
        ambiguous: false,
        candidates: [toCandidate({ ...pick, why }), ...rest.map((s) => toCandidate(s))],
        elements: [first, ...rest.map((s) => s.el)],
        why,
      }
    }
    if (q.ordinal) {
      const pool = ties.map((s) => s.el).sort(readingOrder)
      const at = q.ordinal > 0 ? q.ordinal - 1 : pool.length + q.ordinal
      const pick = ties.find((s) => s.el === pool[at])
      if (!pick) {
        const candidates = ties
          .slice(0, kMaxCandidates)
          .map((s) => toCandidate({ ...s, why: `${s.why}; only ${pool.length} such` }, true))
        return {
          ambiguous: false,
          candidates,
          elements: ties.slice(0, kMaxCandidates).map((s) => s.el),
          why: `no element number ${q.ordinal} among ${pool.length}`,
        }
      }
      const nth = { ...pick, why: `${pick.why}; number ${at + 1} of ${pool.length} in reading order` }
      const rest = visible.filter((s) => s !== pick).slice(0, kMaxCandidates - 1)
      return {
        best: pick.el,
        ambiguous: false,
        candidates: [toCandidate(nth), ...rest.map((s) => toCandidate(s))],
        elements: [pick.el, ...rest.map((s) => s.el)],
        why: nth.why,
      }
    }
    const top = visible.slice(0, kMaxCandidates)
    const candidates = top.map((s) => toCandidate(s))
    const elements = top.map((s) => s.el)
    if (ties.length > 1 && ties.every((t) => sameAction(t.el, ties[0].el))) {
      const first = ties.map((t) => t.el).sort(readingOrder)[0]
      const pick = ties.find((t) => t.el === first)!
      const why = `${pick.why}; ${ties.length} copies with the same target, the first in reading order`
      const rest = top.filter((s) => s !== pick)
      return {
        best: first,
        ambiguous: false,
        candidates: [toCandidate({ ...pick, why }), ...rest.map((s) => toCandidate(s))].slice(0, kMaxCandidates),
        elements: [first, ...rest.map((s) => s.el)].slice(0, kMaxCandidates),
        why,
      }
    }
    if (ties.length > 1)
      return { ambiguous: true, candidates, elements, why: `${ties.length} elements score within ${kAmbiguityMargin}` }
    // A word said is not on the best (or only near it), and it is on another match: each has part
    // of what was said ("What's New in Python 3.10 previous link"), so which is meant is unclear.
    const onTop = new Set([...top[0].why.matchAll(/(\S+)→(?:name|kind|attr|part)/g)].map((m) => m[1]))
    const lacking = q.tokens.filter((t) => !onTop.has(t))
    const rival = lacking.length
      ? scored.find(
          (s) =>
            s.el !== top[0].el &&
            !sameAction(s.el, top[0].el) &&
            lacking.some((t) =>
              new RegExp(`(?:^|\\s)${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}→(?:name|attr)`).test(s.why),
            ) &&
            visibleProxy(s.el),
        )
      : undefined
    if (rival)
      return {
        ambiguous: true,
        candidates,
        elements,
        why: `${top[0].label} lacks "${lacking.join(' ')}", which ${rival.label} has`,
      }
    return { best: top[0].el, ambiguous: false, candidates, elements, why: top[0].why }
  }
  // Nothing passed the bar: the nearest by score, then by kind, then by text, marked weak, so the
  // AI fallback always has something to choose from.
  for (; i < bounded.length && weakScored.length < kMaxCandidates * 4; i++) {
    const s = scoreElement(q, bounded[i].el, rowCache, labels)
    if (s) weakScored.push(s)
  }
  weakScored.sort((a, b) => b.score - a.score)
  const taken = new Set<Element>()
  const weak = distinctVisible(weakScored, kMaxCandidates, taken)
  let looked = 0
  const more = (test: (e: Entry) => boolean, why: string, anywhere = false, bound = kMaxWeakLooks) => {
    looked = 0
    for (const e of entries) {
      if (weak.length >= kMaxCandidates || looked > bound) return
      if (taken.has(e.el) || !test(e) || !(anywhere || inScope(e.el))) continue
      looked++
      distinctVisible(
        [{ el: e.el, score: 0, label: peopleLabel(e.el, nameOrGuess(e.el, (e.role ??= roleOf(e.el)))), why }],
        kMaxCandidates,
        taken,
        weak,
      )
    }
  }
  if (q.kinds.length) more((e) => fitOf(e) === 1, `kind ${q.kinds.join('/')} only`)
  if (needles.length) more((e) => needles.some((t) => e.hay.includes(t)), 'shares a word')
  // Never nothing: a page may hide hundreds of controls first (a collapsed table of contents),
  // so the last passes look as far as it takes to find a visible one.
  if (!weak.length) more(() => true, 'visible control', false, Infinity)
  // The scope itself is not on the page (a closed menu): the page's controls, still never nothing.
  if (!weak.length && q.scope) more(() => true, 'visible control outside the scope', true, Infinity)
  return {
    ambiguous: false,
    candidates: weak.map((s) => toCandidate(s, true)),
    elements: weak.map((s) => s.el),
    why: weak[0]?.why ?? 'no visible control',
  }
}

const kPartWords: Record<PartWord, RegExp> = {
  month: /month|(?:^|[^a-z])(?:mm|mon)(?:[^a-z]|$)|月/,
  day: /(?:^|[^a-z])(?:day|dd)(?:[^a-z]|$)|日/,
  year: /year|yyyy|(?:^|[^a-z])yy(?:[^a-z]|$)|年/,
  'area code': /area|区号|\(\d{3}\)/,
  first: /first|given|fname|(?:^|[^a-z])名/,
  last: /last|family|surname|lname|姓/,
}

/** Whether a control shows the part word: its placeholder, name, id, label, or a select's first or chosen option. */
function partFits(el: Element, part: PartWord): boolean {
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
    (el as HTMLInputElement).labels?.[0]?.textContent,
  ]
    .join(' ')
    .toLowerCase()
  return kPartWords[part].test(text) || (part === 'area code' && el.getAttribute('maxlength') === '3')
}

/** Anchors named by a container word ("below the table"): any visible element of the kind. */
const kAnchorKinds: Array<[RegExp, string]> = [
  [/^(?:the\s+)?(?:table|grid|表格)$/iu, 'table,[role=table],[role=grid],.el-table,.ant-table'],
  [/^(?:the\s+)?(?:form|表单)$/iu, 'form,[role=form]'],
  [/^(?:the\s+)?(?:list|列表)$/iu, 'ul,ol,[role=list],[role=listbox]'],
  [/^(?:the\s+)?(?:image|picture|photo|logo|图片|图像)$/iu, 'img,picture,[role=img]'],
  [/^(?:the\s+)?(?:heading|section heading)$/iu, 'h1,h2,h3,h4,h5,h6,[role=heading]'],
  [/^(?:the\s+)?(?:calendar|日历)$/iu, '[class*=calendar],[class*=datepicker]'],
]

/** The elements a place phrase is relative to: a kind of container, a control, or a visible text. */
function placeAnchors(anchor: string, doc: Document): Element[] {
  for (const [re, sel] of kAnchorKinds)
    if (re.test(anchor.trim())) return [...doc.querySelectorAll(sel)].filter(isVisible)
  const found = matchOne(anchor, doc)
  if (found.best) return [found.best]
  // A label or heading a person reads, not a control: the deepest visible element showing exactly that text.
  const d = parseQuery(anchor)
  const want = normalize(d.quoted ?? d.rest ?? anchor).toLowerCase()
  if (!want) return found.ambiguous ? found.elements.slice(0, 2) : []
  const out: Element[] = []
  for (const el of doc.body?.querySelectorAll('*') ?? []) {
    if (el.closest(`[${kAvaUiAttr}]`) || /^(script|style|template)$/.test(el.localName)) continue
    if (normalize(el.textContent).toLowerCase() !== want) continue
    if ([...el.children].some((c) => normalize(c.textContent).toLowerCase() === want)) continue
    if (isVisible(el)) out.push(el)
  }
  return out.length ? out : found.ambiguous ? found.elements.slice(0, 2) : []
}

/** Distance from the anchor in the direction said, or Infinity when the box is not on that side. */
function placeDistance(rel: PlaceRelation, r: DOMRect, a: DOMRect): number {
  const hGap = Math.max(0, a.left - r.right, r.left - a.right)
  const vGap = Math.max(0, a.top - r.bottom, r.top - a.bottom)
  const sameLine = r.top < a.bottom - 2 && r.bottom > a.top + 2
  // A few pixels of overlap still count as beside (borders, focus rings).
  const slack = 4
  switch (rel) {
    case 'below':
      return r.top >= a.bottom - slack ? r.top - a.bottom + hGap / 4 : Infinity
    case 'above':
      return r.bottom <= a.top + slack ? a.top - r.bottom + hGap / 4 : Infinity
    case 'left':
      return sameLine && r.right <= a.left + slack ? a.left - r.right : Infinity
    case 'right':
      return sameLine && r.left >= a.right - slack ? r.left - a.right : Infinity
    case 'near':
      return Math.hypot(hGap, vGap)
  }
}

/** Two candidates this close to the anchor (px) are equally near: AMBIGUOUS. */
const kPlaceTie = 3

/**
 * The candidate on the side of the anchor the descriptor says, nearest first ("the text box below
 * the table"): among the best-scored ones, distance decides; equal distances are AMBIGUOUS.
 */
function placeMatch(q: SemanticQuery, visible: Scored[], doc: Document): SemanticResult {
  const place = q.place!
  const anchors = placeAnchors(place.anchor, doc)
  const weakOf = (list: Scored[], why: string): SemanticResult => ({
    ambiguous: false,
    candidates: list.slice(0, kMaxCandidates).map((s) => toCandidate({ ...s, why: `${s.why}; ${why}` }, true)),
    elements: list.slice(0, kMaxCandidates).map((s) => s.el),
    why,
  })
  if (!anchors.length) return weakOf(visible, `nothing on the page is "${place.anchor}"`)
  const placed = visible
    .filter((s) => !anchors.some((a) => a === s.el || a.contains(s.el) || s.el.contains(a)))
    .map((s) => {
      const r = s.el.getBoundingClientRect()
      return { s, d: Math.min(...anchors.map((a) => placeDistance(place.rel, r, a.getBoundingClientRect()))) }
    })
    .filter((x) => Number.isFinite(x.d))
  if (!placed.length) return weakOf(visible, `none ${place.rel} "${place.anchor}"`)
  const top = Math.max(...placed.map((x) => x.s.score))
  const pool = placed.filter((x) => x.s.score >= top - kAmbiguityMargin).sort((a, b) => a.d - b.d)
  const rest = placed
    .filter((x) => x !== pool[0])
    .slice(0, kMaxCandidates - 1)
    .map((x) => x.s)
  const why = `${pool[0].s.why}; ${place.rel} "${place.anchor}", ${Math.round(pool[0].d)} px`
  const candidates = [toCandidate({ ...pool[0].s, why }), ...rest.map((s) => toCandidate(s))]
  const elements = [pool[0].s.el, ...rest.map((s) => s.el)]
  if (pool.length > 1 && pool[1].d - pool[0].d < kPlaceTie && !sameAction(pool[0].s.el, pool[1].s.el))
    return {
      ambiguous: true,
      candidates,
      elements,
      why: `${pool.length} elements equally ${place.rel} "${place.anchor}"`,
    }
  return { best: pool[0].s.el, ambiguous: false, candidates, elements, why }
}

/** Elements checked for visibility while filling weak candidates: a bound on a page of thousands. */
const kMaxWeakLooks = 200

/**
 * The one visible element showing the descriptor's text, in its scope, when no control fits: a
 * hover menu, a span with a click handler. Null when none or several do.
 */
export function textTarget(description: string, find: (text: string) => Element[]): Element | Element[] | null {
  const q = parseQuery(description)
  const text = q.quoted ?? q.rest
  if (!text) return null
  const want = normalize(text).toLowerCase()
  let found = find(text).filter(
    (el) =>
      isVisible(el) &&
      !el.closest(`[${kAvaUiAttr}]`) &&
      // A field's label names the field; it is not the thing to act on.
      !el.closest(kFieldLabel) &&
      // Headings title a region; acting on one is not what a description of a control means.
      !el.closest('h1,h2,h3,h4,h5,h6,[role=heading]') &&
      // A word inside a sentence is not a target: the text is about as long as what was said.
      normalize(el.textContent).length <= want.length * 2 + 4,
  )
  if (q.scope) {
    const texts = new Map<Element, boolean>()
    const inside = found.map((el) => ({ el, c: scopeOf(el, q.scope!, texts) })).filter((x) => x.c)
    found = inside
      .filter((x) => !(q.scope!.kind === 'named' && inside.some((o) => o !== x && x.c!.contains(o.el))))
      .map((x) => x.el)
  }
  if (q.ordinal && found.length) {
    const pool = found.sort(readingOrder)
    return pool[q.ordinal > 0 ? q.ordinal - 1 : pool.length + q.ordinal] ?? null
  }
  if (found.length > 1 && found.every((el) => sameAction(el, found[0]))) return found.sort(readingOrder)[0]
  return found.length === 1 ? found[0] : found.length > 1 ? found.slice(0, kMaxCandidates) : null
}

const kFieldLabel =
  '.el-form-item__label,.ant-form-item-label,.n-form-item-label,legend,label:not(:has(input,[role=checkbox],[role=radio],[role=switch]))'
