/**
 * Descriptors as people write them: role words, quoted or plain text, scope,
 * ordinal and state, in English and Chinese — `the text field`, `输入框`, `链接"augue"`,
 * `the second checkbox`, `第二个复选框`, `"Save" in the dialog`, `Reply on @nibh's post`,
 * `对话框里的关闭按钮`, `the x`, `collapsed section header`.
 *
 * Pure: text in, a `Descriptor` out. The page's semantic rung (src/dom/executor/semantic/)
 * scores elements against it; this module knows nothing of the DOM.
 */

/**
 * Kinds of control a descriptor can name. ARIA roles, plus the kinds people name that have no
 * role of their own: a date or time field, a collapsible section header, a close control (its
 * glyph `x`, `×`, `✕`).
 */
export type ControlKind =
  | 'button'
  | 'link'
  | 'textbox'
  | 'searchbox'
  | 'spinbutton'
  | 'checkbox'
  | 'radio'
  | 'combobox'
  | 'listbox'
  | 'option'
  | 'tab'
  | 'menuitem'
  | 'switch'
  | 'slider'
  | 'treeitem'
  | 'date'
  | 'time'
  | 'textarea'
  | 'collapsible'
  | 'close'
  | 'editor'
  | 'image'

/** Containers a scope phrase can name; `named` is any container identified by its text only (a post, a card). */
export type ScopeKind =
  | 'main'
  | 'dialog'
  | 'alert'
  | 'tag'
  | 'row'
  | 'form'
  | 'table'
  | 'menu'
  | 'list'
  | 'nav'
  | 'header'
  | 'footer'
  | 'sidebar'
  | 'toolbar'
  | 'named'

export interface DescriptorState {
  checked?: boolean
  disabled?: boolean
  expanded?: boolean
  selected?: boolean
  /** No value typed or chosen yet (`the empty text box`, `空的输入框`). */
  empty?: boolean
}

/**
 * Where the target sits relative to another element the person names (`the text box below the
 * table`, `表格下面的输入框`, `the button left of Save`): `anchor` is that element's descriptor.
 */
export type PlaceRelation = 'below' | 'above' | 'left' | 'right' | 'near'
export interface DescriptorPlace {
  rel: PlaceRelation
  anchor: string
}

/**
 * Words that pick one of several controls under one label (a date of birth in three selects, a
 * phone number in an area code and a number, a name in two boxes): canonical English.
 */
export type PartWord = 'month' | 'day' | 'year' | 'area code' | 'first' | 'last'

export interface Descriptor {
  raw: string
  /** Kinds the role words name, all of them; empty when the descriptor names none. */
  kinds: ControlKind[]
  /**
   * One group per role word: an element must fit every group, and any kind within a group
   * (`关闭按钮` is a close control and a button; `input` is any of the field kinds).
   */
  kindGroups: ControlKind[][]
  /**
   * Words that named a kind and are also what such a control may say (`date`, `search`, `close`,
   * `x`, `关闭`): an element of the kind satisfies them; another element may still show them.
   */
  kindWords: string[]
  /** The quoted label, if any (`link "augue"`, `链接“augue”`). */
  quoted?: string
  /** Tokens of the rest of the text (role, state, ordinal and scope words removed). */
  tokens: string[]
  /** That rest as text, for matching an element by its visible text ("" when only role words remain). */
  rest: string
  /** 1-based position in reading order; negative counts from the end (-1 is the last). */
  ordinal?: number
  state: DescriptorState
  scope?: { kind: ScopeKind; name?: string; ordinal?: number }
  place?: DescriptorPlace
  part?: PartWord
  /** Said with an indefinite article (`a checkbox`, `一个复选框`): any of equals will do, the first in reading order. */
  article?: boolean
}

/** Role words, longest first where one is a prefix of another. English is matched as whole words. */
const kKindWords: Array<[words: string[], kinds: ControlKind[], keepWord?: true]> = [
  [
    ['text area', 'textarea', 'multi-line text box', 'multiline field', '多行文本框', '多行输入框', '文本域'],
    ['textarea'],
  ],
  [
    ['text field', 'text box', 'textbox', 'textfield', 'text input', '文本框', '编辑框'],
    ['textbox', 'searchbox'],
  ],
  [
    ['search box', 'search field', 'search input', 'search bar', 'searchbox', 'searchbar', '搜索框', '搜索栏'],
    ['searchbox'],
    true,
  ],
  [
    ['date field', 'date input', 'date picker', 'datepicker', 'date box', '日期选择器', '日期输入框', '日期框', '日期'],
    ['date'],
    true,
  ],
  [
    ['time field', 'time input', 'time picker', 'timepicker', '时间选择器', '时间输入框', '时间框', '时间'],
    ['time'],
    true,
  ],
  [['number field', 'number input', 'spinner', 'spinbutton', '数字输入框', '数字框'], ['spinbutton']],
  [
    ['input field', 'input box', 'input', 'field', 'entry', 'box', '输入框', '输入栏'],
    ['textbox', 'searchbox', 'spinbutton', 'combobox', 'date', 'time'],
  ],
  [['radio button', 'radio', 'option button', '单选按钮', '单选框', '单选'], ['radio']],
  [['check box', 'checkbox', 'tick box', 'tickbox', '复选框', '勾选框', '多选框'], ['checkbox']],
  // "the Efficiency section": a section a person clicks is its collapsible header.
  [
    [
      'section header',
      'section heading',
      'section',
      'collapsible',
      'accordion header',
      'accordion',
      'expander',
      'collapse panel',
      '折叠面板',
      '折叠项',
      '折叠标题',
      '手风琴',
    ],
    ['collapsible'],
  ],
  [
    [
      'options list',
      'option list',
      'list box',
      'listbox',
      'combo box',
      'combobox',
      'select box',
      'select',
      'drop down',
      'drop-down',
      'dropdown',
      'picker',
      '下拉列表',
      '下拉框',
      '下拉选择',
      '选择框',
      '选择器',
      '下拉',
    ],
    ['combobox', 'listbox'],
  ],
  [['menu item', 'menuitem', 'menu entry', 'submenu', 'sub-menu', 'sub menu', '菜单项', '子菜单'], ['menuitem']],
  [['tree item', 'treeitem', 'tree node', '树节点'], ['treeitem']],
  [['button', 'btn', '按钮'], ['button']],
  [['hyperlink', 'link', 'anchor', '超链接', '链接'], ['link']],
  [['tab', '标签页', '选项卡'], ['tab']],
  // A rich text editor or a contenteditable area: typed into, named by its label or placeholder.
  [
    [
      'rich text editor',
      'rich-text editor',
      'text editor',
      'rich text box',
      'rich text field',
      'rich text area',
      'rich text',
      'editor',
      'editable area',
      'editable region',
      '富文本编辑器',
      '富文本框',
      '富文本',
      '编辑器',
      '可编辑区域',
      '编辑区域',
      '编辑区',
    ],
    ['editor'],
  ],
  // A picture a person names ("the Python logo", "the avatar"): found by its alt text and file name.
  [['logo', 'image', 'picture', 'photo', 'avatar', 'img', '图片', '图像', '照片', '标志', '头像'], ['image'], true],
  [['switch', 'toggle', '开关'], ['switch']],
  [['slider', '滑块', '滑动条'], ['slider']],
  [['option', '选项'], ['option']],
  [['close', 'dismiss', 'x', '×', '✕', '✖', '✗', '╳', '关闭'], ['close'], true],
]

/** States as adjectives; `selected` means checked for checkable kinds. */
const kStateWords: Array<[words: string[], state: keyof DescriptorState, value: boolean]> = [
  [
    ['unchecked', 'not checked', 'unticked', 'unselected', '未选中的', '未选中', '未勾选的', '未勾选'],
    'checked',
    false,
  ],
  [['checked', 'ticked', '已选中的', '已选中', '已勾选的', '已勾选', '勾选的'], 'checked', true],
  [['disabled', 'greyed out', 'grayed out', '已禁用的', '已禁用', '禁用的', '不可用的'], 'disabled', true],
  [['collapsed', 'folded', '已折叠的', '已折叠', '折叠的', '收起的', '已收起'], 'expanded', false],
  [['expanded', 'unfolded', '已展开的', '已展开', '展开的'], 'expanded', true],
  [['selected', '选中的'], 'selected', true],
  [['empty', 'blank', 'unfilled', '空的', '空白的', '空白', '未填写的', '未填的'], 'empty', true],
]

const kOrdinalWords: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  last: -1,
  penultimate: -2,
}
const kZhDigits: Record<string, number> = {
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
}

/** Container words of a scope phrase. */
const kScopeWords: Array<[words: string[], kind: ScopeKind]> = [
  [
    [
      'dialog',
      'modal',
      'popup',
      'pop-up',
      'drawer',
      'dialogue',
      'lightbox',
      '对话框',
      '弹窗',
      '弹框',
      '弹出框',
      '模态框',
      '抽屉',
    ],
    'dialog',
  ],
  // "in the text", "正文里的": the page's main content, not its navigation.
  [['main content', 'main text', 'text', 'body text', 'article', '正文', '主要内容'], 'main'],
  [['alert', 'notification', 'toast', 'banner', 'notice', '提示', '通知', '警告'], 'alert'],
  [['tag', 'chip', '标签'], 'tag'],
  [['row', 'line', '所在行', '那一行', '这一行', '一行'], 'row'],
  [['form', '表单'], 'form'],
  [['table', 'grid', '表格'], 'table'],
  [['menu', 'dropdown menu', 'drop-down menu', '菜单', '下拉菜单'], 'menu'],
  [['list', 'tree', 'tree view', '列表', '树形', '树'], 'list'],
  [
    [
      'navigation',
      'navbar',
      'nav bar',
      'nav',
      'breadcrumb',
      'breadcrumbs',
      'table of contents',
      'toc',
      '导航栏',
      '导航',
      '面包屑',
      '目录',
    ],
    'nav',
  ],
  [['header', 'page header', 'top bar', '页头', '顶栏'], 'header'],
  [['footer', '页脚'], 'footer'],
  [['sidebar', 'side bar', 'side panel', '侧边栏'], 'sidebar'],
  [['toolbar', '工具栏'], 'toolbar'],
  [
    [
      'post',
      'tweet',
      'comment',
      'card',
      'message',
      'item',
      'entry',
      'section',
      'panel',
      'region',
      'group',
      'box',
      'block',
      'tile',
      'e-mail',
      'mail',
      'calendar',
      'product',
      '帖子',
      '评论',
      '卡片',
      '消息',
      '区域',
      '面板',
      '分组',
      '模块',
      '邮件',
      '日历',
      '商品',
      '产品',
    ],
    'named',
  ],
]

/** Words that say nothing about which element is meant. */
const kStopWords = new Set([
  'the',
  'a',
  'an',
  'on',
  'in',
  'of',
  'to',
  'for',
  'with',
  'and',
  'or',
  'at',
  'by',
  'from',
  'into',
  'this',
  'that',
  'it',
  'its',
  'is',
  'click',
  'press',
  'tap',
  'hit',
  'type',
  'enter',
  'fill',
  'choose',
  'pick',
  'open',
  'element',
  'area',
  'named',
  'labelled',
  'labeled',
  'called',
  'titled',
  'saying',
  'which',
  'says',
  'control',
  'one',
  'icon',
  'symbol',
  'row',
  'item',
  'form',
  'your',
  'my',
])
/** Chinese verbs and particles; removed before Chinese is cut into pairs. */
const kCjkStopWords = [
  '颗',
  '点击',
  '单击',
  '双击',
  '输入',
  '选择',
  '打开',
  '填写',
  '勾选',
  '那个',
  '这个',
  '里面的',
  '里的',
  '中的',
  '上的',
  '内的',
  '的',
  '在',
  '中',
  '里',
  '个',
  '图标',
  // Where it sits on the page ("顶部搜索框"): the kind and the words say which; a position word is no label.
  '顶部',
  '底部',
  '页面上方',
  '页面下方',
]

const kHan = /\p{Script=Han}/u
const kHanSpace = /(\p{Script=Han})\s+(?=\p{Script=Han})/gu
const kTokenRe = /[\p{Script=Han}]+|[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*|[×✕✖✗╳]/gu
const kQuoteRe = /["“”「」『』]([^"“”「」『』]+)["“”「」『』]|(?:^|(?<=[\s(]))['‘]([^'‘’]+)['’](?=$|[\s,.)])/g

/** Latin words lower-cased; Chinese runs cut into overlapping pairs (no word breaks in Chinese). */
export function tokenize(text: string, forQuery = false): string[] {
  const out: string[] = []
  // Ant Design spaces out two-character button labels ("提 交"); a person reads one word.
  const joined = text.toLowerCase().replace(kHanSpace, '$1')
  for (const m of joined.matchAll(kTokenRe)) {
    let w = m[0]
    if (kHan.test(w[0])) {
      if (forQuery) for (const stop of kCjkStopWords) w = w.split(stop).join(' ')
      for (const run of w.split(' ')) {
        if (run.length === 1) out.push(run)
        for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2))
      }
    } else if (w.includes('-')) {
      // A hyphenated word is one word said ("check-in" is not "check-out"); an element's text
      // also gives its parts, so "check in" and "built" still find it.
      out.push(w)
      if (!forQuery) out.push(...w.split('-'))
    } else if (!forQuery || !kStopWords.has(w)) out.push(w)
  }
  return out
}

const kGenericField = new Set<ControlKind>([
  'textbox',
  'searchbox',
  'spinbutton',
  'combobox',
  'listbox',
  'date',
  'time',
])
const kGlyphRe = /^(?:x|×|✕|✖|✗|╳)$/i
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/**
 * A word list as one regex: English as whole words, Chinese and glyphs anywhere. The words are
 * ASCII, so ASCII boundaries and no `u` flag: V8 runs a big `\p{L}`-bounded `iu` regex slowly on
 * its first calls (6–13 ms each, paid by every page's first locate). A Han character next to an
 * English word is then a boundary, which is right for "点击Save按钮".
 */
function wordsRe(words: string[], flags = 'gi'): RegExp {
  const sorted = [...words].sort((a, b) => b.length - a.length)
  const alts = sorted.map((w) =>
    /^[a-z]/i.test(w) ? `(?<![A-Za-z0-9])${escapeRe(w).replace(/ /g, '[\\s-]+')}(?![A-Za-z0-9])` : escapeRe(w),
  )
  return new RegExp(alts.join('|'), flags)
}

const kKindByWord = new Map<string, { kinds: ControlKind[]; keep: boolean }>(
  kKindWords.flatMap(([ws, kinds, keep]) => ws.map((w) => [w, { kinds, keep: !!keep }] as const)),
)
const kKindRe = wordsRe(kKindWords.flatMap(([w]) => w))
const kStateByWord = new Map(kStateWords.flatMap(([ws, state, value]) => ws.map((w) => [w, { state, value }] as const)))
const kStateRe = wordsRe(kStateWords.flatMap(([w]) => w))
const kScopeByWord = new Map(kScopeWords.flatMap(([ws, kind]) => ws.map((w) => [w, kind] as const)))
const kScopeWordRe = wordsRe(
  kScopeWords.flatMap(([w]) => w),
  'i',
)
const kOrdinalRe =
  /(?<![A-Za-z0-9])(?:(second|third)[\s-]+(?:to[\s-]+)?last|(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|penultimate)|(\d+)(?:st|nd|rd|th)|last)(?![A-Za-z0-9])|(?:#|no\.\s*|number\s+)(\d+)(?![0-9])|倒数第([一二两三四五六七八九十]|\d+)[个项条位行]?|第([一二两三四五六七八九十]|\d+)[个项条位行]?|最后(?:一[个项条位行])?的?/gi
const kScopeOrdinalRe =
  /^(?:the\s+)?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d+)(?:st|nd|rd|th)?\s+(row|line|card|item|entry|post|section|product)\b/i
/** "第一行的复选框", "最后一行的删除": a row counted in Chinese. */
const kZhRowRe = /^(?:在)?(?:第([一二两三四五六七八九十]|\d+)|(最后))一?行(?:里面的|里的|中的|上的|的|里|中)(.+)$/u
/** Where a scope phrase starts in English: a preposition before a container. */
const kScopeSplitRe = /\s+(?:in|inside|within|on|of|under|from|at)\s+(?:the\s+|a\s+|an\s+)?/gi
const kZhScopeRe = new RegExp(
  `^(.*?)(${kScopeWords
    .flatMap(([w]) => w)
    .filter((w) => kHan.test(w))
    .sort((a, b) => b.length - a.length)
    .join('|')})(里面的|里面|里的|中的|内的|上的|下的|里|中|内|上|的)(.+)$`,
  'u',
)

/**
 * "X below/above/next to/left of/right of Y": a place relative to another element. "under" is left
 * to the scope split ("the Email radio under Contact Preference" names a group, not a place).
 */
const kPlaceRe =
  /^(.+?)\s+(?:(?:directly|right|just|immediately)\s+)?(?:(below|beneath|underneath|above)|(next\s+to|beside|alongside|near)|(?:to\s+the\s+|on\s+the\s+)?(left|right)(?:\s+side)?\s+of)\s+(.+)$/i
/** "Y下面的X", "Y旁边的X", "Y左边的X": the Chinese order puts the anchor first. */
const kZhPlaceRe = /^(.+?)(下面|下方|下边|上面|上方|上边|旁边|隔壁|附近|左边|左侧|右边|右侧)(?:的|那个|那一个)?(.+)$/u
const kZhPlaceRel: Record<string, PlaceRelation> = {
  下面: 'below',
  下方: 'below',
  下边: 'below',
  上面: 'above',
  上方: 'above',
  上边: 'above',
  旁边: 'near',
  隔壁: 'near',
  附近: 'near',
  左边: 'left',
  左侧: 'left',
  右边: 'right',
  右侧: 'right',
}

function splitPlace(text: string): { target: string; place: DescriptorPlace } | null {
  const en = kPlaceRe.exec(text)
  if (en && en[1].trim() && en[5].trim()) {
    const rel: PlaceRelation = en[2]
      ? /above/i.test(en[2])
        ? 'above'
        : 'below'
      : en[3]
        ? 'near'
        : (en[4].toLowerCase() as 'left' | 'right')
    return { target: en[1], place: { rel, anchor: en[5].trim() } }
  }
  const zh = kZhPlaceRe.exec(text.trim())
  // 页面下方: a place on the page, not beside an element (kCjkStopWords).
  if (zh && zh[1].trim() && zh[3].trim() && !/页面$/u.test(zh[1]))
    return { target: zh[3], place: { rel: kZhPlaceRel[zh[2]], anchor: zh[1].replace(/^(?:在|点击|单击)/u, '').trim() } }
  return null
}

/** Part words said beside a field kind ("the Date of Birth month dropdown", "出生日期的年份下拉框"). */
const kPartRe = /(?<![A-Za-z])(month|day|year|area[\s-]+code)(?![A-Za-z])|(月份|年份|区号|日子)/i
const kZhPart: Record<string, PartWord> = { 月份: 'month', 年份: 'year', 区号: 'area code', 日子: 'day' }
/** Field kinds a part word goes with: a part of a field, never of a button. */
const kPartKinds = new Set<ControlKind>(['textbox', 'searchbox', 'spinbutton', 'combobox', 'listbox', 'date'])

function zhNumber(s: string): number {
  return /^\d+$/.test(s) ? Number(s) : (kZhDigits[s] ?? 1)
}

function parseScope(phrase: string): { kind: ScopeKind; name?: string; ordinal?: number } | null {
  // "the first row", "第一行": a container counted, not named.
  const nth = kScopeOrdinalRe.exec(phrase)
  if (nth) {
    const kind = kScopeByWord.get(nth[2].toLowerCase()) ?? 'row'
    const o = nth[1].toLowerCase()
    return { kind, ordinal: o === 'last' || o === '最后' ? -1 : (kOrdinalWords[o] ?? zhNumber(o)) }
  }
  const m = kScopeWordRe.exec(phrase)
  const possessive = /(@?[\p{L}\p{N}_.-]+)['’]s\b/u.exec(phrase)
  const handle = /@[\p{L}\p{N}_.-]+/u.exec(phrase)
  const quoted = /["“「'‘]([^"”」'’]+)["”」'’]/.exec(phrase)
  // "of order 1003", "for ticket T-1026": a thing named by its number is the container showing it.
  const numbered = /^(?:[\p{L}]+\s+)?([\p{L}\p{N}_-]*\d[\p{L}\p{N}_-]*)$/u.exec(phrase.trim())
  if (!m && !possessive && !handle && !quoted && numbered) return { kind: 'named', name: numbered[1] }
  if (!m && !possessive && !handle && !quoted) return null
  const kind = m ? (kScopeByWord.get(m[0].toLowerCase().replace(/[\s-]+/g, ' ')) ?? 'named') : 'named'
  let name = quoted?.[1] ?? possessive?.[1] ?? handle?.[0]
  if (!name) {
    const rest = (m ? phrase.replace(m[0], ' ') : phrase)
      .replace(/\b(?:of|the|a|an|for|from|named|called|titled|labelled|labeled|with)\b/gi, ' ')
      .replace(/[的里中内上]+$/u, '')
    name = rest.replace(/\s+/g, ' ').trim() || undefined
  }
  if (name) name = name.replace(/^@/, '').trim()
  // "in the calendar", "邮件里的": a container named by its own word, shown as text or class.
  if (!name && kind === 'named' && m) name = m[0]
  return { kind, name: name || undefined }
}

/** Splits "target in/on/of scope" (English) or "scope里的target" (Chinese). */
function splitScope(text: string): { target: string; scope?: { kind: ScopeKind; name?: string; ordinal?: number } } {
  const row = kZhRowRe.exec(text.trim())
  if (row) return { target: row[3], scope: { kind: 'row', ordinal: row[2] ? -1 : zhNumber(row[1]) } }
  const zh = kZhScopeRe.exec(text)
  // "第二个商品的详情", "最后一张卡片里的收藏": a container counted, not named.
  const zhNth = zh && /^(?:在)?(?:第\s*([一二两三四五六七八九十]|\d+)|(最后)一?)\s*[个张条篇件项]?$/u.exec(zh[1])
  if (zh && zhNth && zh[4].trim())
    return {
      target: zh[4],
      scope: { kind: kScopeByWord.get(zh[2]) ?? 'named', ordinal: zhNth[2] ? -1 : zhNumber(zhNth[1]) },
    }
  if (zh && zh[4].trim()) {
    const name = zh[1]
      .replace(/[的里中内]$/u, '')
      .replace(/^(?:在|点击|单击)/u, '')
      .replace(/(?:那|这)[封个条张篇]?$/u, '')
      .replace(/["“”「」]/g, '')
      .trim()
    const kind = kScopeByWord.get(zh[2]) ?? 'named'
    // "日历里的 27 号": a container named by its own word.
    return {
      target: zh[4],
      scope: { kind, name: name ? name.replace(/^@/, '') : kind === 'named' ? zh[2] : undefined },
    }
  }
  for (const m of text.matchAll(kScopeSplitRe)) {
    const target = text.slice(0, m.index)
    const after = text.slice(m.index + m[0].length)
    const scope = parseScope(after)
    if (target.trim() && scope) return { target, scope }
    // "the Email radio button under Contact Preference", "the Yes radio for Developer": a group
    // named by its legend, heading or label; said after a kind word, or after "under".
    const prep = m[0].trim().split(/\s+/)[0].toLowerCase()
    kKindRe.lastIndex = 0
    if (target.trim() && after.trim() && (prep === 'under' || (prep === 'in' && kKindRe.test(target)))) {
      kKindRe.lastIndex = 0
      return {
        target,
        scope: {
          kind: 'named',
          name: after
            .replace(/\uE000/g, ' ')
            .replace(/["“”「」'‘’]/g, '')
            .trim(),
        },
      }
    }
    kKindRe.lastIndex = 0
  }
  // "the Yes radio button for Developer": the question a group of options answers.
  const forGroup = /^(.+?)\s+for\s+(?:the\s+)?(.+)$/i.exec(text)
  kKindRe.lastIndex = 0
  if (forGroup && kKindRe.test(forGroup[1])) {
    kKindRe.lastIndex = 0
    return {
      target: forGroup[1],
      scope: {
        kind: 'named',
        name: forGroup[2]
          .replace(/\uE000/g, ' ')
          .replace(/["“”「」'‘’]/g, '')
          .trim(),
      },
    }
  }
  kKindRe.lastIndex = 0
  // "Contact Preference 里的 Phone 单选按钮", "性别里的 Female": a group named before 里的.
  const group = /^(.+?)\s*(?:里面的|里的|(?<!选)中的|下的)\s*(.+)$/u.exec(text)
  if (group && group[1].trim() && group[2].trim())
    return {
      target: group[2],
      scope: {
        kind: 'named',
        name: group[1]
          .replace(/\uE000/g, ' ')
          .replace(/["“”「」]/g, '')
          .trim(),
      },
    }
  // "like Ana's post": the post is a record named by its author, said after the target.
  const owned =
    /^(.+?)\s+(@?[^\s'’]+)['’]s\s+(?:post|tweet|comment|card|message|review|answer|reply|photo|e-?mail|mail)$/iu.exec(
      text,
    )
  if (owned && owned[1].trim()) return { target: owned[1], scope: { kind: 'named', name: owned[2].replace(/^@/, '') } }
  // "点赞 Bo 的帖子": the same in Chinese, the record after its author and 的.
  const ownedZh = /^(.+?)\s+(@?\S+?)\s*的\s*(?:帖子|评论|卡片|消息|邮件|回复)$/u.exec(text)
  if (ownedZh && ownedZh[1].trim())
    return { target: ownedZh[1], scope: { kind: 'named', name: ownedZh[2].replace(/^@/, '') } }
  // "the dialog's close button", "@nibh's Reply"
  const pos = /^\s*(?:the\s+)?(@?[^\s']+(?:\s[^\s']+)?)['’]s\s+(.+)$/u.exec(text)
  if (pos) {
    const scope = parseScope(`${pos[1]}'s`)
    if (scope && (scope.kind !== 'named' || pos[1].startsWith('@'))) {
      const kindWord = kScopeWordRe.exec(pos[1])
      return {
        target: pos[2],
        scope:
          kindWord && scope.kind !== 'named'
            ? { kind: scope.kind, name: pos[1].replace(kindWord[0], '').trim() || undefined }
            : scope,
      }
    }
  }
  return { target: text }
}

/** "where I type my email", "我填邮箱的地方": the field, said by what is typed there. */
const kWhereTypedRe =
  /^\s*(?:the\s+(?:place|spot|box|field)\s+)?where\s+(?:i|you|we)\s+(?:can\s+|should\s+|have\s+to\s+)?(?:type|enter|put|write|fill\s+in|input)\s+(.+)$/i
const kWhereTypedZhRe = /^\s*(?:我|你)?(?:要|可以)?(?:输入|填写|填入|填)(.+?)的(?:地方|位置)\s*$/u

export function parseDescriptor(raw: string): Descriptor {
  let text = raw.replace(kWhereTypedRe, '$1 field').replace(kWhereTypedZhRe, '$1输入框')
  const state: DescriptorState = {}
  // Quoted labels first: nothing inside quotes is a role, state or scope word (their spaces are
  // held as U+E000, a private-use character, while the scope is split off).
  let quoted: string | undefined
  const held = text.replace(kQuoteRe, (all) => all.replace(/\s/g, '\uE000'))
  // "the text box below the table": the place is split off first; the rest is the target.
  const placed = splitPlace(held)
  const place = placed ? { rel: placed.place.rel, anchor: placed.place.anchor.replace(/\uE000/g, ' ') } : undefined
  // "a checkbox", "一个复选框": any one of equals will do.
  let article = false
  const target = (placed?.target ?? held)
    .replace(/^\s*(?:(?:click|tick|check|choose|pick|select|press|tap)\s+)?(?:a|an|any)\s+(?=\S)/i, (all) => {
      article = true
      return all.replace(/(?:a|an|any)\s+$/i, ' ')
    })
    .replace(/^\s*(?:点击|勾选|选择|选中)?\s*(?:任意)?一[个项]\s*(?!\p{Script=Han}*[行页])/u, (all) => {
      article = true
      return all.replace(/(?:任意)?一[个项]\s*$/u, ' ')
    })
  const split = splitScope(target)
  text = split.target.replace(/\uE000/g, ' ')
  if (split.scope?.name) split.scope.name = split.scope.name.replace(/\uE000/g, ' ')
  text = text.replace(kQuoteRe, (_all, a: string | undefined, b: string | undefined) => {
    quoted ??= (a ?? b ?? '').trim() || undefined
    return ' '
  })
  // "the first search result", "搜索结果 os.getcwd": a link in the list of search results.
  if (!split.scope) {
    text = text.replace(/(?<![\p{L}])search\s+results?(?![\p{L}])|搜索结果/iu, () => {
      split.scope = { kind: 'named', name: 'search result' }
      return ' link '
    })
  }
  // "the range() function": the brackets already say it is a function; the word is no label.
  // "the parse_args() method section" is the section titled so: there the word is the title's.
  text = text.replace(
    /([\p{L}\p{N}_.]+\(\))\s*(?:function|method|函数|方法)(?![\p{L}])(?!\s*(?:section|heading|chapter|节|章节|部分))/giu,
    '$1',
  )
  // "letter A", "字母 Q": a one-letter label (never the article "a").
  text = text.replace(/(?<![\p{L}])(?:letter|字母)\s*([A-Za-z])(?![\p{L}\p{N}])/iu, (_all, letter: string) => {
    quoted ??= letter.toUpperCase()
    return ' '
  })
  // "day 27", "27 号": the day shown as 27 in a calendar, not the 27th of anything.
  text = text.replace(
    /(?<![\p{L}])day\s+(\d{1,2})(?![\p{N}])|(?<![\p{N}])(\d{1,2})\s*[号日](?![\p{Script=Han}])/iu,
    (_all, a?: string, b?: string) => {
      quoted ??= a ?? b
      return ' '
    },
  )
  // "button ONE": a word in capitals is a label, never a number or a filler word.
  if (!quoted) {
    const caps = /(?<![\p{L}\p{N}])(\p{Lu}{2,})(?![\p{L}\p{N}])/u.exec(text)
    if (
      caps &&
      (kStopWords.has(caps[1].toLowerCase()) ||
        kOrdinalWords[caps[1].toLowerCase()] !== undefined ||
        /^(?:ONE|TWO|THREE|FOUR|FIVE|SIX|SEVEN|EIGHT|NINE|TEN)$/.test(caps[1]))
    ) {
      quoted = caps[1]
      text = text.replace(caps[0], ' ')
    }
  }
  // "第9页", "page 9": the page numbered 9 of a pager, not the ninth of anything.
  text = text.replace(/第\s*(\d+)\s*页|(?<![\p{L}])page\s+(\d+)(?![\p{N}])/giu, (_all, a?: string, b?: string) => {
    quoted ??= a ?? b
    return ' '
  })
  // "the Next link at the bottom", "页面底部的 Go 按钮": the last (or first) of its equals on the page.
  let end: number | undefined
  text = text
    .replace(/\s+(?:at|on|in)\s+the\s+(top|bottom)(?:\s+of\s+the\s+page)?\s*$/i, (_all, where: string) => {
      end = /top/i.test(where) ? 1 : -1
      return ' '
    })
    .replace(/^\s*(?:页面)?(顶部|底部|最上面|最下面)(?:的)?/u, (_all, where: string) => {
      end = /顶部|最上面/u.test(where) ? 1 : -1
      return ' '
    })
  let ordinal: number | undefined
  text = text.replace(
    kOrdinalRe,
    (
      all,
      nthLast?: string,
      word?: string,
      num?: string,
      hash?: string,
      zhLast?: string,
      zhNth?: string,
      offset?: number,
      whole?: string,
    ) => {
      // "first name", "last name": the words of a label, not a position.
      if (word && typeof offset === 'number' && /^\s+name\b/i.test((whole ?? '').slice(offset + all.length))) return all
      if (
        /^last$/i.test(all) &&
        typeof offset === 'number' &&
        /^\s+name\b/i.test((whole ?? '').slice(offset + all.length))
      )
        return all
      if (word) ordinal = kOrdinalWords[word.toLowerCase()]
      else if (num) ordinal = Number(num)
      else if (nthLast) ordinal = -kOrdinalWords[nthLast.toLowerCase()]
      else if (hash) ordinal = Number(hash)
      else if (zhLast) ordinal = -zhNumber(zhLast)
      else if (zhNth) ordinal = zhNumber(zhNth)
      else if (/^last$/i.test(all) || all.startsWith('最后')) ordinal = -1
      return ' '
    },
  )
  let kindGroups: ControlKind[][] = []
  let kindWords: string[] = []
  // "select" first in a descriptor is the verb ("select the country dropdown").
  text = text.replace(/^\s*select\s+/i, ' ')
  // "the Mobile number field": "number" is a word of the label, not the number-field kind.
  // Only for numbers that are names of things ("the budget number input" is a number input).
  text = text.replace(
    /(?<![\p{L}])(phone|mobile|cell|telephone|tel|card|account|order|tracking|reference|serial|house|street|passport|id|invoice|contact|fax|vat|tax|policy|member|membership|customer|ticket|seat|room|flight|unit|apartment|routing|registration|license|licence|security)\s+number(?=[\s-]+(?:field|input|box))/giu,
    (_all, w: string) => `${w} number\uE002`,
  )
  text = text.replace(kStateRe, (w) => {
    const s = kStateByWord.get(w.toLowerCase().replace(/[\s-]+/g, ' '))
    if (s) state[s.state] = s.value
    return ' '
  })
  // "密码框", "备注框": a field named by what goes in it (对话框, 复选框, 下拉框… are words of their own).
  text = text.replace(/(?<=[\p{L}\p{N}]\s*)(?<![话选拉索入本期间字择])框/u, ' 输入框 ')
  // "close the modal", "关闭库存提示", "remove the Urgent tag": the close control of that container.
  const verb = /^\s*(?:close|dismiss|关闭|remove|删除)\s*(?:the\s+)?(.+)$/iu.exec(text)
  const verbScope = verb && !split.scope && !kKindRe.test(verb[1]) ? parseScope(verb[1]) : null
  kKindRe.lastIndex = 0
  if (
    verbScope &&
    verbScope.kind !== 'named' &&
    (/^(?:close|dismiss|关闭)/i.test(text.trim()) || verbScope.kind === 'tag')
  ) {
    split.scope = verbScope
    text = 'close'
  }
  // "统计标签": a trailing 标签 with no particle after it names a tab (标签页), not a tag scope.
  text = text.replace(/(?<=\p{Script=Han})标签\s*$/u, () => {
    kindGroups.push(['tab'])
    return ' '
  })
  // "选中邮箱容量已满": tick the box of the row or item showing those words.
  const tick = !split.scope && /^\s*选中(?!的)(.+)$/u.exec(text)
  if (tick && !kKindRe.test(tick[1]) && !/^\s*第/u.test(tick[1])) {
    split.scope = { kind: 'named', name: tick[1].trim() }
    kindGroups.push(['checkbox', 'radio', 'switch'])
    text = ' '
  }
  kKindRe.lastIndex = 0
  // "展开关联工单", "expand Advanced": the header of a collapsible section.
  text = text.replace(/^\s*(?:展开|收起|折叠(?!面板|项|标题)|expand|collapse)\s*/iu, () => {
    kindGroups.push(['collapsible'])
    return ' '
  })
  const beforeKinds = text
  // "the Price spinner's up arrow", "the slider's handle": the widget owns the part said after
  // it; the part is the target, and the widget's word stays a word its parts show (dom/words).
  const owner = /(?<![A-Za-z])(spinner|stepper|slider|dropdown|select|number field)['’]s\s/i
    .exec(text)?.[1]
    .toLowerCase()
  if (owner) text = text.replace(/(?<![A-Za-z])(spinner|stepper|slider|dropdown|select|number field)['’]s\s/i, '$1 ')
  text = text.replace(kKindRe, (w) => {
    const k = kKindByWord.get(w.toLowerCase().replace(/[\s-]+/g, ' ')) ?? kKindByWord.get(w.toLowerCase())
    if (!k) return w
    kindGroups.push(k.kinds)
    // The word a control of the kind may show: "date" of "date picker", "日期" of "日期选择器", "×".
    if (k.keep) kindWords.push(kHan.test(w) ? w.slice(0, 2) : w.toLowerCase().split(/[\s-]+/)[0])
    return ' '
  })
  if (owner) {
    const ownerKinds = kKindByWord.get(owner)?.kinds ?? []
    kindGroups = kindGroups.filter((g) => g.join() !== ownerKinds.join())
    text = `${text} ${owner.split(' ')[0]}`
  }
  // A quoted glyph is the close control's ("the \"x\" of the dialog").
  if (quoted && kGlyphRe.test(quoted)) {
    kindGroups.push(['close'])
    kindWords.push(quoted.toLowerCase())
  }
  // "Close" among other words is a label ("Close all", "关闭工单"), not the close control.
  if (tokenize(text, true).length && !(quoted && kGlyphRe.test(quoted))) {
    const closeWords = new Set(['close', 'dismiss', '关闭'])
    const said = kindWords.filter((w) => closeWords.has(w))
    if (said.length) {
      kindGroups = kindGroups.filter((g) => !(g.length === 1 && g[0] === 'close'))
      kindWords = kindWords.filter((w) => !closeWords.has(w))
      text = beforeKinds.replace(kKindRe, (w) => (closeWords.has(w.toLowerCase()) ? w : ' '))
    }
  }
  // "the collapsed panel", "已折叠的面板": a panel said with its open state is its collapsible header.
  if (state.expanded !== undefined && !kindGroups.length) {
    text = text.replace(/(?<![A-Za-z])panel(?![A-Za-z])|面板/i, () => {
      kindGroups.push(['collapsible'])
      return ' '
    })
  }
  // A part word beside a field kind: which of the controls under one label.
  let part: PartWord | undefined
  if (kindGroups.some((g) => g.some((k) => kPartKinds.has(k)))) {
    const pm = kPartRe.exec(text)
    if (pm) {
      part = pm[1] ? (pm[1].toLowerCase().replace(/[\s-]+/g, ' ') as PartWord) : kZhPart[pm[2]]
      text = text.replace(pm[0], ' ')
      // "出生日期的年份下拉框": the date is the label; the control is the year's select.
      if (part !== 'area code') {
        const dateGroups = kindGroups.filter((g) => g.length === 1 && g[0] === 'date')
        if (dateGroups.length && dateGroups.length < kindGroups.length) {
          kindGroups = kindGroups.filter((g) => !dateGroups.includes(g))
          kindWords = kindWords.filter((w) => w !== 'date' && w !== '日期')
          text = `${text} ${/\p{Script=Han}/u.test(raw) ? '日期' : 'date'}`
        }
      }
    }
  }
  // "the Comparisons section link", "章节链接": a link to a section of the page, not the
  // section's collapsible header; "section" stays a word the link's target says (dom/words).
  if (
    kindGroups.some((g) => g.includes('link')) &&
    kindGroups.some((g) => g.length === 1 && g[0] === 'collapsible') &&
    /(?<![A-Za-z])section(?![A-Za-z])|章节/i.test(beforeKinds)
  ) {
    kindGroups = kindGroups.filter((g) => !(g.length === 1 && g[0] === 'collapsible'))
    text = `${text} section`
  }
  // A specific field kind with a generic word ("日期选择框", "date input"): the specific one.
  const specific = kindGroups.filter(
    (g) => g.length === 1 && (g[0] === 'date' || g[0] === 'time' || g[0] === 'textarea' || g[0] === 'searchbox'),
  )
  if (specific.length)
    kindGroups = kindGroups.filter((g) => specific.includes(g) || !g.every((k) => kGenericField.has(k)))
  const kinds = new Set(kindGroups.flat())
  // "selected" on a checkbox, radio or switch is its checked state.
  if (state.selected !== undefined && [...kinds].some((k) => k === 'checkbox' || k === 'radio' || k === 'switch')) {
    state.checked = state.selected
    delete state.selected
  }
  const words = tokenize(text, true)
  // A capital letter after the first word ("the A link", "click Q") is a label, not the article;
  // so is a capitalised filler word when nothing else is left ("the To field", "the On switch").
  if (!words.length && !quoted) {
    const letter = /(?<=\S\s+)(?<![\p{L}\p{N}])([A-Z]|\p{Lu}\p{Ll}+)(?![\p{L}\p{N}])/u.exec(text)
    if (letter) quoted = letter[1]
  }
  // A symbol for a label ("the « button", "the _ link"): nothing to tokenize, so it is the label.
  if (!words.length && !quoted) {
    const symbol = text.replace(/\b(?:the|a|an)\b/gi, '').trim()
    if (symbol && !/[\p{L}\p{N}]/u.test(symbol)) quoted = symbol
  }
  // Stop words go only at the ends: "Log in" keeps its "in".
  const restWords = text.split(/\s+/).filter(Boolean)
  while (restWords.length && kStopWords.has(restWords[0].toLowerCase())) restWords.shift()
  while (restWords.length && kStopWords.has(restWords[restWords.length - 1].toLowerCase())) restWords.pop()
  const rest = restWords
    .join(' ')
    .replace(new RegExp(`^(?:${kCjkStopWords.slice(0, 7).join('|')})`, 'u'), '')
    .replace(/[的里中]+$/u, '')
    .replace(/\uE002/g, '')
    .trim()
  const tokens = [...new Set([...words, ...kindWords])]
  return {
    raw,
    kinds: [...kinds],
    kindGroups,
    kindWords: [...new Set(kindWords)],
    ...(quoted ? { quoted } : {}),
    tokens,
    rest,
    ...((ordinal ?? end) ? { ordinal: ordinal ?? end } : {}),
    state,
    ...(split.scope ? { scope: split.scope } : {}),
    ...(place ? { place } : {}),
    ...(part ? { part } : {}),
    ...(article ? { article } : {}),
  }
}
