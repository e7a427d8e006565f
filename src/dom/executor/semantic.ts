/**
 * The semantic rung of the ladder (seed 002 §5.1 "文本描述 → 模糊匹配（标签、placeholder）"):
 * a description such as "username input", "the 新建 button" or "删除 in the row of 张三" is
 * scored against the page's interactive elements by what a person reads on them — accessible
 * name, placeholder, aria-label, title, the form label or row text next to them, their role —
 * in English and Chinese. The best few become the candidate list of §5.1 for the AI fallback.
 *
 * Speed (issue 5 bench, ≤ 10 ms on 5,000 elements): a cheap substring filter runs first over
 * texts kept between calls until the page mutates (`PageIndex`), and layout (visibility) is read
 * only for the best-scored elements, never for all of them.
 */
import type { Candidate } from '../../core/exec'
import { accessibleName, normalize, roleOf, searchRoots, type SearchRoot } from '../locators'
import { cssPath, isVisible, kAvaUiAttr } from './dom'

/** What counts as interactive for the semantic rung: controls, roles, and wrapper widgets. */
export const kInteractive = [
  'a[href]', 'button', 'input:not([type=hidden])', 'select', 'textarea', 'summary', 'label',
  '[role=button]', '[role=link]', '[role=checkbox]', '[role=radio]', '[role=switch]', '[role=tab]', '[role=menuitem]',
  '[role=menuitemcheckbox]', '[role=menuitemradio]', '[role=option]', '[role=combobox]', '[role=textbox]', '[role=slider]', '[role=treeitem]',
  '[contenteditable=""]', '[contenteditable=true]', '[tabindex]:not([tabindex="-1"])', '[onclick]',
].join(',')

/** Words people use for a control's kind, mapped to ARIA roles (English and Chinese). */
const kRoleWords: Array<[words: string[], roles: string[]]> = [
  [['button', 'btn', '按钮'], ['button']],
  [['link', '链接', '超链接'], ['link']],
  [['input', 'field', 'textbox', 'textfield', 'box', '输入框', '文本框', '输入栏'], ['textbox', 'searchbox', 'combobox', 'spinbutton']],
  [['checkbox', 'tickbox', '复选框', '勾选框', '多选框'], ['checkbox']],
  [['radio', '单选框', '单选'], ['radio']],
  [['switch', 'toggle', '开关'], ['switch', 'checkbox']],
  [['dropdown', 'combobox', 'combo', 'picker', '下拉框', '下拉', '选择框', '选择器'], ['combobox', 'listbox', 'button']],
  [['tab', '标签页', '选项卡'], ['tab']],
  [['menu', 'menuitem', '菜单', '菜单项'], ['menuitem', 'button']],
  [['option', '选项'], ['option']],
]
const kRoleByWord = new Map<string, string[]>(kRoleWords.flatMap(([words, roles]) => words.map((w) => [w, roles] as [string, string[]])))
/** Chinese role words are stripped from the text before it is cut into pairs of characters. */
const kCjkRoleWords = kRoleWords.flatMap(([w]) => w.filter((x) => /\p{Script=Han}/u.test(x))).sort((a, b) => b.length - a.length)

/** Words that say nothing about which element is meant. */
const kStopWords = new Set([
  'the', 'a', 'an', 'on', 'in', 'of', 'to', 'for', 'with', 'and', 'or', 'at', 'by', 'from', 'into', 'this', 'that', 'it', 'its', 'is',
  'click', 'press', 'tap', 'hit', 'type', 'enter', 'fill', 'select', 'choose', 'pick', 'open', 'element', 'area', 'page', 'form', 'named', 'labelled', 'labeled', 'called', 'row', 'item',
])
const kCjkStopWords = ['点击', '单击', '输入', '选择', '打开', '填写', '里的', '中的', '上的', '的', '在', '中', '里']

const kHan = /\p{Script=Han}/u
const kHanSpace = /(\p{Script=Han})\s+(?=\p{Script=Han})/gu
const kTokenRe = /[\p{Script=Han}]+|[\p{L}\p{N}]+/gu

/** Latin words lower-cased; Chinese runs cut into overlapping pairs (no word breaks in Chinese). */
export function tokenize(text: string, forQuery = false): string[] {
  const out: string[] = []
  // Ant Design spaces out two-character button labels ("提 交"); a person reads one word.
  const joined = text.toLowerCase().replace(kHanSpace, '$1')
  for (const m of joined.matchAll(kTokenRe)) {
    let w = m[0]
    if (kHan.test(w[0])) {
      if (forQuery) for (const stop of [...kCjkRoleWords, ...kCjkStopWords]) w = w.split(stop).join(' ')
      for (const run of w.split(' ')) {
        if (run.length === 1) out.push(run)
        for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2))
      }
    } else if (!forQuery || !kStopWords.has(w)) out.push(w)
  }
  return out
}

export interface SemanticQuery {
  text: string
  tokens: string[]
  /** Roles the description names ("button", "输入框"); empty when it names none. */
  roles: Set<string>
  /** A quoted label in the description ("the \"Save\" button"): matched exactly, strongly preferred. */
  quoted?: string
}

export function parseQuery(text: string): SemanticQuery {
  const roles = new Set<string>()
  const lower = text.toLowerCase()
  for (const m of lower.matchAll(/[a-z]+/g)) for (const r of kRoleByWord.get(m[0]) ?? []) roles.add(r)
  for (const w of kCjkRoleWords) if (lower.includes(w)) for (const r of kRoleByWord.get(w) ?? []) roles.add(r)
  const quoted = /["“'「]([^"”'」]+)["”'」]/.exec(text)?.[1]?.trim()
  const tokens = tokenize(text, true).filter((t) => !kRoleByWord.has(t))
  return { text, tokens: [...new Set(tokens)], roles, quoted: quoted || undefined }
}

/** Weights of where a query word was found: the element's own label counts most (seed 002 §3.2). */
const kWeightOwn = 1
const kWeightAttr = 0.8
const kWeightNear = 0.6
const kWeightPartial = 0.5

/** Share of each part of the score; they add up to 1 (plus the exact-label bonus). */
const kShareRecall = 0.55
const kSharePrecision = 0.2
const kShareRole = 0.25
const kExactBonus = 0.15
/**
 * Below this a "match" is a shared common word or only text nearby: a description matched by the
 * text next to a field, with no role word to back it, scores 0.46 and must not win on its own.
 */
export const kMinScore = 0.5
/** Two visible candidates closer than this are too close to call: AMBIGUOUS, never a guess (issue 5). */
export const kAmbiguityMargin = 0.05
/** Candidates handed to the AI fallback (seed 002 §5.1). */
export const kMaxCandidates = 5

interface Scored {
  el: Element
  score: number
  label: string
}

/** The element a person would click for a hidden native control (Element Plus checkbox input). */
export function visibleProxy(el: Element): Element | null {
  if (isVisible(el)) return el
  const proxy = el.closest('label,.el-switch,.ant-switch,.el-checkbox,.el-radio,.ant-checkbox-wrapper,.ant-radio-wrapper,.el-select,.ant-select')
  if (proxy && isVisible(proxy)) return proxy
  const label = (el as HTMLInputElement).labels?.[0]
  return label && isVisible(label) ? label : null
}

const kFormItem = '.el-form-item,.ant-form-item,.form-group,.form-item,.field,fieldset'
const kRowish = 'tr,li,[role=row],[role=listitem],.el-table__row,.ant-table-row'

/** Text of a row with a space between text nodes: `textContent` glues cells ("1001Edit"). */
function spacedText(el: Element): string {
  const parts: string[] = []
  const walker = el.ownerDocument.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */)
  for (let n = walker.nextNode(); n; n = walker.nextNode()) parts.push(n.textContent ?? '')
  return normalize(parts.join(' '))
}

function textAround(el: Element, rowCache: Map<Element, string>): string {
  const parts: string[] = []
  const item = el.closest(kFormItem)
  if (item) {
    const label = item.querySelector('label,.el-form-item__label,.ant-form-item-label,legend')
    if (label && !label.contains(el)) parts.push(label.textContent ?? '')
  }
  const row = el.closest(kRowish)
  if (row) {
    let t = rowCache.get(row)
    if (t === undefined) {
      t = spacedText(row).slice(0, 160)
      rowCache.set(row, t)
    }
    parts.push(t)
  }
  const prev = el.previousElementSibling
  if (prev && !prev.matches(kInteractive)) {
    const t = normalize(prev.textContent)
    if (t.length <= 40) parts.push(t)
  }
  return parts.join(' ').toLowerCase()
}

/**
 * `label[for]` texts by id, one query per search root: `el.labels` searches the document for
 * every field, which on a page of thousands of inputs costs more than the whole match.
 */
export class LabelIndex {
  private byRoot = new Map<Node, Map<string, string>>()

  textFor(el: Element): string {
    const wrap = el.closest('label')
    const parts: string[] = wrap ? [wrap.textContent ?? ''] : []
    if (el.id) {
      const root = el.getRootNode()
      let map = this.byRoot.get(root)
      if (!map) {
        map = new Map()
        for (const l of (root as ParentNode).querySelectorAll('label[for]')) {
          const key = l.getAttribute('for')!
          map.set(key, `${map.get(key) ?? ''} ${l.textContent ?? ''}`)
        }
        this.byRoot.set(root, map)
      }
      const forText = map.get(el.id)
      if (forText) parts.push(forText)
    }
    return normalize(parts.join(' '))
  }
}

function ownText(el: Element, role: string, labels: LabelIndex): string {
  const field = el.localName === 'input' || el.localName === 'select' || el.localName === 'textarea'
  // For fields the label index stands in for accname's label step (same text, no document search).
  const aria = el.getAttribute('aria-labelledby') || el.getAttribute('aria-label')
  const bits = [field && !aria ? '' : accessibleName(el, role), el.getAttribute('placeholder'), el.getAttribute('aria-label'), el.getAttribute('title')]
  if (field) bits.push(labels.textFor(el))
  // Select widgets show their placeholder in a sibling span, not on the input.
  const widget = el.localName === 'input' ? el.closest('.ant-select,.el-select') : null
  if (widget) bits.push(widget.querySelector('.ant-select-selection-placeholder,.el-select__placeholder')?.textContent ?? null)
  if (el.localName === 'label' || role === 'button' || role === 'link' || role === 'tab' || role === 'menuitem' || role === 'option') bits.push(el.textContent)
  const unique: string[] = []
  for (const b of bits) {
    const t = normalize(b)
    if (t && !unique.includes(t)) unique.push(t)
  }
  return unique.join(' ')
}

function attrText(el: Element): string {
  return [el.getAttribute('name'), el.id, el.getAttribute('data-testid'), el.getAttribute('autocomplete'), el.getAttribute('type')]
    .filter(Boolean)
    .join(' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
}

const kNoTokens: ReadonlySet<string> = new Set()

function tokensOf(text: string): Set<string> {
  let set = tokenCache.get(text)
  if (!set) {
    set = new Set(tokenize(text))
    tokenCache.set(text, set)
  }
  return set
}

/** Tokens of the text around an element: row, form item label, previous text (weight kWeightNear). */
function nearTokens(el: Element, rowCache: Map<Element, string>): Set<string> {
  return tokensOf(textAround(el, rowCache))
}

/** Tokens of a field's label[for] text and widget placeholder (its own name, weight kWeightOwn). */
function fieldLabelTokens(el: Element, labels: LabelIndex): Set<string> {
  return tokensOf(`${labels.textFor(el)} ${placeholderOf(el)}`.toLowerCase())
}

function placeholderOf(el: Element): string {
  const widget = el.localName === 'input' ? el.closest('.ant-select,.el-select') : null
  return widget?.querySelector('.ant-select-selection-placeholder,.el-select__placeholder')?.textContent ?? ''
}

/** Token sets of texts seen in this page (row texts repeat for every control in the row). */
const tokenCache = new Map<string, Set<string>>()
/** Bounded so a long session on a changing page does not grow it without end. */
const kTokenCacheMax = 5_000

export function scoreElement(q: SemanticQuery, el: Element, rowCache = new Map<Element, string>(), labels = new LabelIndex()): Scored | null {
  if (tokenCache.size > kTokenCacheMax) tokenCache.clear()
  const role = roleOf(el)
  const own = ownText(el, role, labels)
  const ownLower = own.toLowerCase()
  const ownTokens = new Set(tokenize(own))
  const attrs = attrText(el)
  const attrTokens = new Set(tokenize(attrs))
  let near: Set<string> | undefined
  let sum = 0
  let hitsOwn = 0
  for (const t of q.tokens) {
    let w = 0
    if (ownTokens.has(t)) {
      w = kWeightOwn
      hitsOwn++
    } else if (attrTokens.has(t)) w = kWeightAttr
    else {
      // Five controls of a row share its text: tokenized once (tokenCache).
      near ??= tokensOf(textAround(el, rowCache))
      if (near.has(t)) w = kWeightNear
      else if (t.length >= 3 && (ownLower.includes(t) || attrs.includes(t))) w = kWeightPartial
    }
    sum += w
  }
  if (q.tokens.length && sum === 0) return null
  const recall = q.tokens.length ? sum / q.tokens.length : 0
  const precision = ownTokens.size ? hitsOwn / ownTokens.size : 0
  const roleScore = q.roles.size === 0 ? 0.5 : q.roles.has(role) || (role === '' && el.localName === 'label' && q.roles.has('checkbox')) ? 1 : 0
  if (!q.tokens.length && roleScore < 1) return null
  const stripped = q.quoted ?? q.tokens.join(' ')
  const exact = stripped && normalize(stripped).toLowerCase() === ownLower ? kExactBonus : 0
  const quotedMiss = q.quoted && !ownLower.includes(q.quoted.toLowerCase()) ? 0.2 : 0
  const score = Math.max(0, Math.min(1, kShareRecall * recall + kSharePrecision * precision + kShareRole * roleScore + exact - quotedMiss))
  return { el, score, label: own.slice(0, 50) || normalize(el.textContent).slice(0, 50) }
}

export interface SemanticResult {
  /** The unique best element, or none when nothing fits or two fit too well. */
  best?: Element
  ambiguous: boolean
  candidates: Candidate[]
  /** Elements of the candidates, parallel to `candidates`. */
  elements: Element[]
}

export function candidateId(el: Element): string {
  return el.getAttribute('data-agent-id') ?? `css:${cssPath(el)}`
}

/**
 * What stage 1 reads of one interactive element. Everything but the live `value` comes from the
 * DOM alone, so it stays right until the page mutates (see `PageIndex`).
 */
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
}

/**
 * The interactive elements of a document's search roots with their stage-1 texts, kept between
 * calls (issue 5 bench: a locate that re-reads 5,000 elements' text and rows costs 25–40 ms; one
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
  labels = new LabelIndex()
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
    this.labels = new LabelIndex()
    const seen = new Set<Element>()
    for (const root of roots) {
      for (const el of root.querySelectorAll(kInteractive)) {
        if (seen.has(el)) continue
        seen.add(el)
        // A label is a target only for the checkbox or radio it toggles; a text field's label is its name.
        if (el.localName === 'label' && !/^(checkbox|radio)$/.test(((el as HTMLLabelElement).control as HTMLInputElement | null)?.type ?? '')) continue
        const field = /^(input|select|textarea)$/.test(el.localName) || el.matches('[role=combobox],[role=switch],[role=checkbox],[role=radio]')
        const before = `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('placeholder') ?? ''} ${el.getAttribute('title') ?? ''} ${el.getAttribute('name') ?? ''} ${el.id} `.toLowerCase()
        const after = ` ${el.textContent ?? ''}`.toLowerCase()
        const value = valueOf(el)
        this.entries.push({ el, field, before, after, value, hay: before + value.toLowerCase() + after })
      }
    }
    const MO = roots[0] ? viewOf(roots[0]).MutationObserver : undefined
    if (!MO) return
    const observer = new MO(() => this.invalidate())
    for (const root of roots) observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true })
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

/** Scores every interactive element of the page (all search roots) against the description. */
export function semanticMatch(description: string, scope: Document = document): SemanticResult {
  const q = parseQuery(description)
  const needles = q.quoted ? [q.quoted.toLowerCase(), ...q.tokens] : q.tokens
  const han = needles.some((t) => kHan.test(t))
  let index = indexes.get(scope)
  if (!index) indexes.set(scope, (index = new PageIndex()))
  const entries = index.current(searchRoots(scope))
  const { rowCache, labels } = index
  const scored: Scored[] = []
  // Stage 1, cheap: an upper bound of each element's score from the text it carries and the
  // text around it. Stage 2 scores fully, best bound first, and stops once no bound can reach
  // the ambiguity margin of the best score: on a page of thousands of controls only a few are
  // ever scored in full (issue 5 bench).
  const bounded: Array<{ el: Element; ub: number }> = []
  const roleUb = q.roles.size === 0 ? 0.5 * kShareRole : kShareRole
  const whole = (q.quoted ?? q.tokens.join(' ')).toLowerCase()
  const quoted = q.quoted?.toLowerCase()
  for (const e of entries) {
    const el = e.el
    const value = valueOf(el)
    if (value !== e.value) {
      e.value = value
      e.hay = e.before + value.toLowerCase() + e.after
      e.hayHan = undefined
    }
    const hay = han ? (e.hayHan ??= e.hay.replace(kHanSpace, '$1')) : e.hay
    let sum = 0
    for (const t of q.tokens) {
      if (hay.includes(t)) sum += kWeightOwn
      else {
        // A field's label[for] and widget placeholder are its own text, as in scoreElement.
        const own = (e.own ??= e.field ? fieldLabelTokens(el, labels) : kNoTokens)
        if (own.has(t)) sum += kWeightOwn
        else if ((e.near ??= nearTokens(el, rowCache)).has(t)) sum += kWeightNear
      }
    }
    if (needles.length && sum === 0 && !(quoted && hay.includes(quoted))) continue
    const recallUb = q.tokens.length ? sum / q.tokens.length : 0
    const exactUb = whole && hay.includes(whole) ? kExactBonus : 0
    bounded.push({ el, ub: kShareRecall * recallUb + kSharePrecision + roleUb + exactUb })
  }
  bounded.sort((a, b) => b.ub - a.ub)
  let best = 0
  let full = 0
  for (const { el, ub } of bounded) {
    if (ub < kMinScore || (full >= kMaxCandidates && ub < best - kAmbiguityMargin)) break
    const s = scoreElement(q, el, rowCache, labels)
    full++
    if (!s || s.score < kMinScore) continue
    scored.push(s)
    best = Math.max(best, s.score)
  }
  scored.sort((a, b) => b.score - a.score)
  // Layout is read only now, best first, until enough visible candidates are known.
  const visible: Scored[] = []
  const taken = new Set<Element>()
  for (const s of scored) {
    if (s.el.closest(`[${kAvaUiAttr}]`)) continue
    const proxy = visibleProxy(s.el)
    if (!proxy || taken.has(proxy)) continue
    taken.add(proxy)
    // A label and the control inside it are one target.
    if (visible.some((v) => v.el.contains(proxy) || proxy.contains(v.el))) continue
    visible.push({ ...s, el: proxy })
    // Enough to show and to tell a tie: a thousand equal links need not all be laid out.
    if (visible.length >= kMaxCandidates) break
  }
  const top = visible.slice(0, kMaxCandidates)
  const candidates = top.map((s) => ({ id: candidateId(s.el), label: s.label, score: Math.round(s.score * 100) / 100 }))
  const elements = top.map((s) => s.el)
  if (!top.length) return { ambiguous: false, candidates, elements }
  const ties = top.filter((s) => s.score >= top[0].score - kAmbiguityMargin)
  if (ties.length > 1) return { ambiguous: true, candidates, elements }
  return { best: top[0].el, ambiguous: false, candidates, elements }
}
