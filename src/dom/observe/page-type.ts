/**
 * Page understanding: the page type from weighted signals, the intents the
 * page offers, and a one-line summary. Signals are descriptors in one table, scored and summed.
 */
import {
  PageType,
  type ContentSection,
  type ElementRecord,
  type Intent,
  type ItemGroup,
  type Region,
} from '../../core/page/snapshot'

/** Signal weights: URL and form signals are strong, counts and words medium, layout weak. */
export const kWeight = { high: 3, medium: 2, low: 1 } as const
/** A type needs at least one strong signal's worth of evidence, else the page is `unknown`. */
export const kMinTypeScore = 3

export interface PageFeatures {
  url: string
  path: string
  query: string
  /** Title, headings and button/link labels, lower-cased: where the type keywords are looked for. */
  words: string
  passwords: number
  textInputs: number
  searchInputs: number
  searchValue: boolean
  textareas: number
  checkboxes: number
  switches: number
  selects: number
  buttons: number
  links: number
  interactive: number
  requiredFields: number
  formFields: number
  largestGroup: number
  /** Rows of the largest table. */
  tableRows: number
  groupsWithCheckboxes: number
  paragraphs: number
  textChars: number
  hasArticle: boolean
  charts: number
  hasNav: boolean
  hasAside: boolean
  cardFields: number
  emailFields: number
  pagination: boolean
}

interface Signal {
  type: PageType
  weight: number
  /** What the signal looks for, for debugging and the docs. */
  why: string
  test: (f: PageFeatures) => boolean
}

const has = (re: RegExp) => (f: PageFeatures) => re.test(f.words)
const url = (re: RegExp) => (f: PageFeatures) => re.test(f.path) || re.test(f.query)

/** The signal table. */
export const kSignals: Signal[] = [
  // login
  {
    type: PageType.LOGIN,
    weight: kWeight.high,
    why: 'url /login',
    test: url(/\/(login|signin|sign-in|logon|auth)\b/i),
  },
  {
    type: PageType.LOGIN,
    weight: kWeight.high,
    why: 'one password field',
    test: (f) => f.passwords === 1 && f.textInputs <= 3,
  },
  { type: PageType.LOGIN, weight: kWeight.medium, why: 'login words', test: has(/登录|登入|log ?in|sign ?in/) },
  // register
  {
    type: PageType.REGISTER,
    weight: kWeight.high,
    why: 'url /register',
    test: url(/\/(register|signup|sign-up|join)\b/i),
  },
  { type: PageType.REGISTER, weight: kWeight.high, why: 'password + confirmation', test: (f) => f.passwords >= 2 },
  {
    type: PageType.REGISTER,
    weight: kWeight.medium,
    why: 'register words',
    test: has(/注册|sign ?up|register|create (an )?account/),
  },
  // search
  {
    type: PageType.SEARCH_ENGINE,
    weight: kWeight.high,
    why: 'a search box and little else',
    test: (f) =>
      f.searchInputs >= 1 && !f.searchValue && f.interactive <= 30 && f.largestGroup < 5 && f.tableRows === 0,
  },
  { type: PageType.SEARCH_ENGINE, weight: kWeight.low, why: 'search words', test: has(/搜索|search/) },
  {
    type: PageType.SEARCH_RESULTS,
    weight: kWeight.high,
    why: 'url ?q=',
    test: (f) => /[?&](q|query|wd|search|keyword|kw)=/i.test(f.query) || /\/search\b/i.test(f.path),
  },
  {
    type: PageType.SEARCH_RESULTS,
    weight: kWeight.medium,
    why: 'a filled search box',
    test: (f) => f.searchInputs >= 1 && f.searchValue,
  },
  {
    type: PageType.SEARCH_RESULTS,
    weight: kWeight.medium,
    why: 'results words',
    test: has(/搜索结果|条结果|\bresults?\b/),
  },
  // forms
  {
    type: PageType.FORM,
    weight: kWeight.high,
    why: 'three or more fields',
    test: (f) => f.formFields >= 3 && f.passwords === 0,
  },
  { type: PageType.FORM, weight: kWeight.low, why: 'required fields', test: (f) => f.requiredFields >= 2 },
  // article
  {
    type: PageType.ARTICLE,
    weight: kWeight.high,
    why: '<article> with long text',
    test: (f) => f.hasArticle && f.textChars >= 1000,
  },
  {
    type: PageType.ARTICLE,
    weight: kWeight.medium,
    why: 'many paragraphs',
    test: (f) => f.paragraphs >= 5 && f.textChars >= 1500,
  },
  {
    type: PageType.ARTICLE,
    weight: kWeight.low,
    why: 'few controls for the text',
    test: (f) => f.textChars > 20 * Math.max(1, f.formFields) && f.paragraphs >= 3,
  },
  // list
  { type: PageType.LIST, weight: kWeight.medium, why: 'many list items', test: (f) => f.largestGroup >= 10 },
  { type: PageType.LIST, weight: kWeight.low, why: 'a long list', test: (f) => f.largestGroup >= 30 },
  { type: PageType.LIST, weight: kWeight.low, why: 'pagination', test: (f) => f.pagination },
  // email
  {
    type: PageType.EMAIL_COMPOSE,
    weight: kWeight.high,
    why: 'url compose',
    test: url(/compose|\/new-?message|writemail/i),
  },
  {
    type: PageType.EMAIL_COMPOSE,
    weight: kWeight.high,
    why: 'to + subject + body',
    test: (f) => f.emailFields >= 2 && f.textareas >= 1,
  },
  {
    type: PageType.EMAIL_COMPOSE,
    weight: kWeight.medium,
    why: 'compose words',
    test: has(/写信|撰写|compose|new message/),
  },
  { type: PageType.EMAIL_INBOX, weight: kWeight.high, why: 'url inbox', test: url(/inbox|\/mail\b/i) },
  { type: PageType.EMAIL_INBOX, weight: kWeight.medium, why: 'inbox words', test: has(/收件箱|inbox/) },
  {
    type: PageType.EMAIL_INBOX,
    weight: kWeight.medium,
    why: 'rows with checkboxes',
    test: (f) => f.groupsWithCheckboxes >= 1 && f.largestGroup >= 5 && /mail|邮件|inbox|收件/.test(f.words),
  },
  // dashboard
  {
    type: PageType.DASHBOARD,
    weight: kWeight.high,
    why: 'url /dashboard',
    test: url(/\/(dashboard|admin|console|overview)\b/i),
  },
  {
    type: PageType.DASHBOARD,
    weight: kWeight.medium,
    why: 'dashboard words',
    test: has(/仪表盘|控制台|工作台|dashboard|overview|analytics/),
  },
  { type: PageType.DASHBOARD, weight: kWeight.medium, why: 'charts', test: (f) => f.charts >= 2 },
  { type: PageType.DASHBOARD, weight: kWeight.low, why: 'nav + sidebar layout', test: (f) => f.hasNav && f.hasAside },
  // settings
  {
    type: PageType.SETTINGS,
    weight: kWeight.high,
    why: 'url /settings',
    test: url(/\/(settings|preferences|account|config)\b/i),
  },
  {
    type: PageType.SETTINGS,
    weight: kWeight.medium,
    why: 'settings words',
    test: has(/设置|偏好|settings|preferences/),
  },
  {
    type: PageType.SETTINGS,
    weight: kWeight.low,
    why: 'toggles',
    test: (f) => f.switches + f.checkboxes >= 3 && f.largestGroup < 10,
  },
  // checkout
  {
    type: PageType.CHECKOUT,
    weight: kWeight.high,
    why: 'url /checkout',
    test: url(/\/(checkout|payment|pay|cart)\b/i),
  },
  { type: PageType.CHECKOUT, weight: kWeight.high, why: 'card fields', test: (f) => f.cardFields >= 1 },
  {
    type: PageType.CHECKOUT,
    weight: kWeight.medium,
    why: 'checkout words',
    test: has(/结算|支付|付款|checkout|place order|payment/),
  },
]

/** Order of preference on a tie: the more specific type first. */
const kTieOrder: PageType[] = [
  PageType.CHECKOUT,
  PageType.EMAIL_COMPOSE,
  PageType.EMAIL_INBOX,
  PageType.REGISTER,
  PageType.LOGIN,
  PageType.SEARCH_RESULTS,
  PageType.SEARCH_ENGINE,
  PageType.SETTINGS,
  PageType.DASHBOARD,
  PageType.ARTICLE,
  PageType.LIST,
  PageType.FORM,
]

export function classify(f: PageFeatures): { type: PageType; scores: Partial<Record<PageType, number>> } {
  const scores: Partial<Record<PageType, number>> = {}
  for (const s of kSignals) if (s.test(f)) scores[s.type] = (scores[s.type] ?? 0) + s.weight
  let best: PageType = PageType.UNKNOWN
  let bestScore = kMinTypeScore - 1
  for (const type of kTieOrder) {
    const score = scores[type] ?? 0
    if (score > bestScore) {
      best = type
      bestScore = score
    }
  }
  return { type: best, scores }
}

const kSearchHint = /search|搜索|查找|query|keyword|^q$|^wd$|^kw$/i
const kCardHint = /cc-|card|卡号|cvv|cvc|security code|expir/i
const kEmailFieldHint = /^(to|cc|bcc|subject)$|收件人|主题|抄送|recipient|subject/i
const kPageHint = /^(next|prev|previous|下一页|上一页|\d{1,3})$|pagination|pager|page_?\d/i

export function pageFeatures(
  loc: { url: string; title: string },
  elements: ElementRecord[],
  content: ContentSection[],
  groups: ItemGroup[],
  regions: Region[],
  counts: { paragraphs: number; charts: number; hasArticle: boolean; textChars: number },
): PageFeatures {
  let parsed: URL | null
  try {
    parsed = new URL(loc.url)
  } catch {
    parsed = null
  }
  const f: PageFeatures = {
    url: loc.url,
    path: parsed?.pathname ?? '',
    query: parsed?.search ?? '',
    words: '',
    passwords: 0,
    textInputs: 0,
    searchInputs: 0,
    searchValue: false,
    textareas: 0,
    checkboxes: 0,
    switches: 0,
    selects: 0,
    buttons: 0,
    links: 0,
    interactive: elements.length,
    requiredFields: 0,
    formFields: 0,
    largestGroup: 0,
    tableRows: 0,
    groupsWithCheckboxes: 0,
    paragraphs: counts.paragraphs,
    textChars: counts.textChars,
    hasArticle: counts.hasArticle,
    charts: counts.charts,
    hasNav: regions.some((r) => r.kind === 'nav'),
    hasAside: regions.some((r) => r.kind === 'aside'),
    cardFields: 0,
    emailFields: 0,
    pagination: false,
  }
  const words: string[] = [loc.title]
  const checkboxGroups = new Set<string>()
  for (const e of elements) {
    // Controls repeated in every row of a table are the table's, not a form's.
    const inRow = e.group !== undefined
    const hint = `${e.label} ${e.attrs.name ?? ''} ${e.attrs.placeholder ?? ''} ${e.attrs.inputType ?? ''}`
    switch (e.type) {
      case 'password_input':
        f.passwords++
        if (!inRow) f.formFields++
        break
      case 'text_input':
        f.textInputs++
        if (!inRow) f.formFields++
        if (
          e.attrs.inputType === 'search' ||
          e.role === 'searchbox' ||
          kSearchHint.test(e.attrs.name ?? '') ||
          kSearchHint.test(e.label)
        ) {
          f.searchInputs++
          if (e.state.value) f.searchValue = true
        }
        if (kCardHint.test(hint)) f.cardFields++
        if (kEmailFieldHint.test(e.label) || kEmailFieldHint.test(e.attrs.name ?? '')) f.emailFields++
        break
      case 'textarea':
        f.textareas++
        if (!inRow) f.formFields++
        break
      case 'checkbox':
        if (inRow) {
          // Row selection boxes are a table's, not toggles of a settings page.
        } else if (e.role === 'switch') f.switches++
        else f.checkboxes++
        if (e.group) checkboxGroups.add(e.group)
        break
      case 'select':
        f.selects++
        if (!inRow) f.formFields++
        break
      case 'button':
        f.buttons++
        if (words.length < 60) words.push(e.label)
        break
      case 'link':
        // Link labels are not keywords: every page of an app links to its "Settings" and "Inbox".
        f.links++
        if (kPageHint.test(e.label) || /pagination|pager/i.test(e.className)) f.pagination = true
        break
      case 'menu_item':
      case 'tab':
        break
      default:
        if (words.length < 60) words.push(e.label)
    }
    if (e.state.required) f.requiredFields++
  }
  for (const g of groups) {
    f.largestGroup = Math.max(f.largestGroup, g.items)
    if (g.kind === 'table') f.tableRows = Math.max(f.tableRows, g.items)
  }
  f.groupsWithCheckboxes = checkboxGroups.size
  for (const c of content) if (/^h[1-3]$/.test(c.tag)) words.push(c.text)
  f.words = words.join(' \n ').toLowerCase()
  return f
}

/** Intents per page type, plus generic ones any page can carry (intents). */
export function inferIntents(type: PageType, elements: ElementRecord[], groups: ItemGroup[]): Intent[] {
  const intents: Intent[] = []
  const ids = (pred: (e: ElementRecord) => boolean, max = 5) =>
    elements
      .filter(pred)
      .slice(0, max)
      .map((e) => e.id)
  const fields = (e: ElementRecord) =>
    e.type === 'text_input' || e.type === 'password_input' || e.type === 'textarea' || e.type === 'select'
  const submit = (e: ElementRecord) =>
    e.type === 'button' &&
    /submit|登录|注册|提交|保存|确定|sign|log ?in|save|send|发送|continue|next|pay|支付/i.test(
      e.label + ' ' + (e.attrs.inputType ?? ''),
    )
  const add = (name: string, targets: string[]) => {
    if (targets.length) intents.push({ name, targets })
  }
  switch (type) {
    case PageType.LOGIN:
      add(
        'login',
        ids((e) => fields(e) || submit(e)),
      )
      break
    case PageType.REGISTER:
      add(
        'register',
        ids((e) => fields(e) || submit(e), 8),
      )
      break
    case PageType.EMAIL_COMPOSE:
      add(
        'send_email',
        ids((e) => fields(e) || /send|发送/i.test(e.label), 6),
      )
      break
    case PageType.CHECKOUT:
      add(
        'pay',
        ids((e) => fields(e) || submit(e), 8),
      )
      break
    case PageType.ARTICLE:
      add(
        'read',
        ids((e) => e.type === 'link', 1),
      )
      break
    default:
      break
  }
  add(
    'search',
    ids(
      (e) =>
        e.type === 'text_input' &&
        (e.attrs.inputType === 'search' ||
          e.role === 'searchbox' ||
          kSearchHint.test(e.label) ||
          kSearchHint.test(e.attrs.name ?? '')),
      2,
    ),
  )
  if (type === PageType.FORM || type === PageType.SETTINGS)
    add(
      'fill_form',
      ids((e) => fields(e) || e.type === 'checkbox' || e.type === 'radio' || submit(e), 10),
    )
  const big = groups.filter((g) => g.items >= 3)
  if (big.length)
    add(
      'open_item',
      ids((e) => e.group === big[0].id && (e.type === 'link' || e.type === 'list_item'), 3),
    )
  const pages = ids((e) => e.type === 'link' && (kPageHint.test(e.label) || /page|pagina/i.test(e.className)), 3)
  add('paginate', pages)
  const dialogClose = ids((e) => e.region.startsWith('dialog') && e.type === 'button', 3)
  add('respond_to_dialog', dialogClose)
  return intents
}

const kTypeWords: Record<PageType, string> = {
  search_engine: 'Search page',
  search_results: 'Search results',
  login: 'Login page',
  register: 'Sign-up page',
  form: 'Form',
  article: 'Article',
  list: 'List page',
  email_compose: 'Email compose page',
  email_inbox: 'Email inbox',
  dashboard: 'Dashboard',
  settings: 'Settings page',
  checkout: 'Checkout page',
  unknown: 'Page',
}

/** One line for the model and the panel ("一句话描述"). */
export function summarize(
  type: PageType,
  title: string,
  elements: ElementRecord[],
  groups: ItemGroup[],
  regions: Region[],
): string {
  const counts: Record<string, number> = {}
  for (const e of elements) {
    const k =
      e.type === 'password_input' || e.type === 'textarea' || e.type === 'select' || e.type === 'text_input'
        ? 'fields'
        : e.type === 'link'
          ? 'links'
          : 'controls'
    counts[k] = (counts[k] ?? 0) + 1
  }
  const parts = [`${counts.fields ?? 0} fields`, `${counts.controls ?? 0} controls`, `${counts.links ?? 0} links`]
  const biggest = groups.reduce<ItemGroup | null>((a, g) => (!a || g.items > a.items ? g : a), null)
  let line = `${kTypeWords[type]}${title ? ` "${title.slice(0, 60)}"` : ''}: ${parts.join(', ')}`
  if (biggest && biggest.items >= 3)
    line += `; a ${biggest.kind} of ${biggest.items} ${biggest.kind === 'table' ? 'rows' : 'items'}`
  const dialog = regions.find((r) => r.kind === 'dialog' && r.elements > 0)
  if (dialog) line += `; dialog open${dialog.label ? ` "${dialog.label}"` : ''}`
  return line
}
