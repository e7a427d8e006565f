/**
 * The page as the LLM reads it: a compact line format (docs/page-representation.md) and a token
 * budget filled by attention, viewport and relevance to the person's request.
 */
import { relevance } from './relevance'
import {
  kDefaultRole,
  kIdPrefix,
  type ElementRecord,
  type Intent,
  type PageSnapshot,
  type RegionKind,
} from './snapshot'
import { clip, slug } from './text'
import { estimateTokens } from './tokens-estimate'

/** Titles longer than this are clipped in the listing's first line: a page can fill a title with instructions. */
const kMaxListedTitle = 200

/** Default listing budget ("a token budget (default 4,000 tokens)"). */
export const kDefaultBudgetTokens = 4000
/** Content sections shown above the elements: the top of the attention ranking. */
export const kDefaultContentSections = 5
/** Content lines may take at most this share of the budget; elements are the point. */
const kContentShare = 0.15
/** Longest content text in the listing; the snapshot keeps more. */
const kContentLineMax = 120
/** Groups smaller than this are not announced with a heading. */
const kMinGroupHeading = 5
/** Relevance dominates: a matching element off-screen beats a non-matching one on screen. */
const kRelevanceWeight = 4
/** How much each region kind draws the eye and the task; an open dialog comes first. */
const kRegionWeight: Record<RegionKind, number> = {
  dialog: 3,
  form: 1.4,
  main: 1.2,
  page: 1,
  header: 0.8,
  nav: 0.7,
  aside: 0.6,
  footer: 0.4,
}
/** At most this many elements share one line of the listing. */
const kPerLine = 8
/** Boxes whose tops differ by at most this are on the same visual line. */
const kSameLinePx = 8
/** Estimated cost of one "… +N more …" line. */
const kOmissionLineTokens = 10
/** Estimated cost of a group heading (`### table g1 "Orders": 1000 rows`). */
const kGroupHeadingTokens = 16
/** Refill rounds after the first pass, while the listing uses less than this share of the budget. */
const kRefillRounds = 3
const kRefillBelow = 0.95
/** Share of the budget dropped per round when the rendered listing is still over budget. */
const kTrimShare = 0.03

export interface SerializeOptions {
  /** Token budget; `Infinity` lists everything (the full listing). Default 4,000. */
  budgetTokens?: number
  /** The person's request; elements matching it are chosen first. */
  request?: string
  contentSections?: number
}

export interface SerializedPage {
  text: string
  /** Estimated tokens of `text` (conservative; the background can count exactly). */
  tokens: number
  /** Elements listed. */
  included: number
  /** Elements left out and summarised. */
  omitted: number
  /** Ids of the listed elements. */
  ids: string[]
}

/**
 * The page's intents as the planner may use them: only the ids the listing shows,
 * since an id the model cannot see in the listing is one it cannot check; an intent left with
 * none is dropped.
 */
export function listedIntents(intents: readonly Intent[], listed: readonly string[]): Intent[] {
  const shown = new Set(listed)
  return intents
    .map((i) => ({ name: i.name, targets: i.targets.filter((t) => shown.has(t)) }))
    .filter((i) => i.targets.length > 0)
}

export function serialize(snapshot: PageSnapshot, options: SerializeOptions = {}): SerializedPage {
  const budget = options.budgetTokens ?? kDefaultBudgetTokens
  const els = snapshot.elements
  const rel = relevance(els, options.request)
  const head = headerLines(snapshot, options.contentSections ?? kDefaultContentSections, budget * kContentShare)
  const include = new Uint8Array(els.length)
  let text: string
  let tokens: number
  if (!Number.isFinite(budget)) {
    include.fill(1)
    text = render(snapshot, include, rel, head)
    tokens = estimateTokens(text)
  } else {
    const order = rankOrder(snapshot, rel)
    select(snapshot, order, rel, include, budget - estimateTokens(head.join('\n')) - 1)
    text = render(snapshot, include, rel, head)
    tokens = estimateTokens(text)
    // The first pass reserves room for omission lines that may never be printed: refill.
    for (let round = 0; round < kRefillRounds && tokens < budget * kRefillBelow; round++) {
      const before = tokens
      select(snapshot, order, rel, include, budget - tokens)
      text = render(snapshot, include, rel, head)
      tokens = estimateTokens(text)
      if (tokens === before) break
    }
  }
  if (Number.isFinite(budget)) {
    // Omission lines and headings were estimated ahead; trim the least wanted until it fits.
    const order = rankOrder(snapshot, rel)
    let cursor = order.length - 1
    while (tokens > budget && cursor >= 0) {
      let included = 0
      for (let i = 0; i < include.length; i++) included += include[i]
      let drop = Math.max(1, Math.ceil((included * (tokens - budget)) / tokens + included * kTrimShare))
      while (drop > 0 && cursor >= 0) {
        if (include[order[cursor]]) {
          include[order[cursor]] = 0
          drop--
        }
        cursor--
      }
      text = render(snapshot, include, rel, head)
      tokens = estimateTokens(text)
    }
  }
  const ids: string[] = []
  for (let i = 0; i < els.length; i++) if (include[i]) ids.push(els[i].id)
  return { text, tokens, included: ids.length, omitted: els.length - ids.length, ids }
}

function headerLines(s: PageSnapshot, sections: number, contentBudget: number): string[] {
  // The title clipped as the prompt's own line is (prompt.ts kMaxTitleChars).
  const lines = [`# ${clip(s.title, kMaxListedTitle) || '(untitled)'} | ${s.pageType} | ${s.url}`, s.summary]
  let spent = 0
  for (const c of s.content.slice(0, sections)) {
    const line = `${c.tag}: ${c.text.length > kContentLineMax ? c.text.slice(0, kContentLineMax - 1) + '…' : c.text}`
    spent += estimateTokens(line) + 1
    if (spent > contentBudget) break
    if (spent === estimateTokens(line) + 1) lines.push('## content')
    lines.push(line)
  }
  for (const f of s.frames) {
    if (f.status === 'cross_origin_restricted')
      lines.push(
        `${f.id} cross_origin_restricted ${f.url} @${f.bounds.x},${f.bounds.y} ${f.bounds.width}x${f.bounds.height}`,
      )
  }
  if (s.lazyRegions.length) lines.push(`(more content loads on scroll: ${s.lazyRegions.length} lazy regions)`)
  return lines
}

/** Values that need no quotes: one word, no spaces or quotes (saves a token per value). */
const kBareValue = /^[\p{L}\p{N}_.@:/+-]+$/u

/**
 * The element as one token of the listing: `id[flags]="value" "label"`. `written` replaces the id
 * when a keyed row shortens it (`btn_edit_` for `btn_edit_near_742` in row `742:`).
 */
export function elementToken(e: ElementRecord, written = e.id): string {
  let out = written
  const flags: string[] = []
  const it = e.attrs.inputType
  if (
    e.role &&
    e.role !== kDefaultRole[e.type] &&
    e.role !== 'textbox' &&
    e.role !== 'button' &&
    !(e.role === 'searchbox' && it === 'search')
  )
    flags.push(e.role)
  if (
    it &&
    it !== 'password' &&
    it !== 'checkbox' &&
    it !== 'radio' &&
    it !== 'file' &&
    it !== 'submit' &&
    it !== 'button' &&
    !flags.includes(it)
  )
    flags.push(it)
  const st = e.state
  if (st.checked === true) flags.push('checked')
  else if (st.checked === 'mixed') flags.push('mixed')
  if (st.selected) flags.push('selected')
  if (st.expanded === true) flags.push('expanded')
  else if (st.expanded === false) flags.push('collapsed')
  if (st.disabled) flags.push('disabled')
  if (st.readonly) flags.push('readonly')
  if (st.required) flags.push('required')
  if (st.invalid) flags.push('invalid')
  if (st.focused) flags.push('focused')
  // Named from its icon only: the model should know the name is Ava's guess, not the page's.
  if (e.guessed) flags.push('guessed')
  if (flags.length) out += `[${flags.join(',')}]`
  if (st.value) out += `=${kBareValue.test(st.value) ? st.value : JSON.stringify(st.value)}`
  if (e.label && !labelImplied(e)) out += ` ${JSON.stringify(e.label)}`
  return out
}

/** The label is implied when the id already spells it (`btn_登录` for "登录"). */
function labelImplied(e: ElementRecord): boolean {
  const s = slug(e.label)
  if (!s || slug(e.label, 1000) !== s) return false
  const local = e.frame ? e.id.slice(e.frame.length + 1) : e.id
  const stem = `${kIdPrefix[e.type]}_${s}`
  return local === stem || local.startsWith(stem + '_')
}

const kNear = '_near_'

/** The word after `_near_` that ends the element's id, or ''. */
function nearKey(e: ElementRecord): string {
  const at = e.id.lastIndexOf(kNear)
  return at > 0 ? e.id.slice(at + kNear.length) : ''
}

/**
 * The key a table row is written with: the `_near_` word that at least two of its listed
 * elements end in (the most common one), or '' when writing ids in full is as short.
 */
function rowKey(els: ElementRecord[], members: number[]): string {
  const counts = new Map<string, number>()
  let best = ''
  let bestCount = 1
  for (const i of members) {
    const k = nearKey(els[i])
    if (!k) continue
    const n = (counts.get(k) ?? 0) + 1
    counts.set(k, n)
    if (n > bestCount) {
      best = k
      bestCount = n
    }
  }
  return best
}

/** `e`'s id as written in a row with `key`: without the `near_<key>` that the key stands for. */
function writtenId(e: ElementRecord, key: string): string {
  return key && e.id.endsWith(kNear + key) ? e.id.slice(0, e.id.length - key.length - kNear.length + 1) : e.id
}

/**
 * How a heading explains keyed ids, with an example from what it heads: a group's rows, or a
 * region's lines outside tables (a card's buttons).
 */
function keyedNote(e: ElementRecord, key: string, unit: 'row' | 'line'): string {
  return `; in a ${unit} "${key}: ${writtenId(e, key)}" means ${e.id}`
}

/**
 * Listed elements outside groups that share a keyed line: neighbours in the listing, in one
 * region, whose ids end in the same `_near_<word>` (a product card's Buy and More), by index.
 */
function keyedLines(els: ElementRecord[], include: Uint8Array): Map<number, string> {
  const keys = new Map<number, string>()
  let prev = -1
  for (let i = 0; i < els.length; i++) {
    if (!include[i]) continue
    const e = els[i]
    const p = prev >= 0 ? els[prev] : undefined
    if (e.group === undefined && p && p.group === undefined && p.region === e.region) {
      const key = nearKey(e)
      if (key && nearKey(p) === key) {
        keys.set(prev, key)
        keys.set(i, key)
      }
    }
    prev = i
  }
  return keys
}

function viewportScore(e: ElementRecord, s: PageSnapshot): number {
  if (e.inViewport) return 1
  const vh = Math.max(1, s.viewport.height)
  const top = s.viewport.scrollY
  const d = e.bounds.y > top ? (e.bounds.y - (top + vh)) / vh : (top - (e.bounds.y + e.bounds.height)) / vh
  return 1 / (1 + Math.max(0, d))
}

function scores(s: PageSnapshot, rel: Float64Array): Float64Array {
  const kinds = new Map(s.regions.map((r) => [r.id, r.kind]))
  const out = new Float64Array(s.elements.length)
  s.elements.forEach((e, i) => {
    const w = kRegionWeight[kinds.get(e.region) ?? 'page']
    out[i] = kRelevanceWeight * rel[i] + viewportScore(e, s) * w + (e.state.focused ? 1 : 0)
  })
  return out
}

/** Element indices from most to least wanted. */
function rankOrder(s: PageSnapshot, rel: Float64Array): number[] {
  const sc = scores(s, rel)
  return Array.from(sc.keys()).sort((a, b) => sc[b] - sc[a] || a - b)
}

/** Greedy fill of the budget by score, counting headings and row prefixes as they appear. */
function select(s: PageSnapshot, order: number[], rel: Float64Array, include: Uint8Array, available: number): void {
  const regionsSeen = new Set<string>()
  const groupsSeen = new Set<string>()
  const rowsSeen = new Set<string>()
  for (let i = 0; i < include.length; i++) {
    if (!include[i]) continue
    const e = s.elements[i]
    regionsSeen.add(e.region)
    if (e.group !== undefined) {
      groupsSeen.add(e.group)
      rowsSeen.add(`${e.group}:${e.item}`)
    }
  }
  // Regions left out entirely still get a one-line summary each.
  let left = available - s.regions.filter((r) => r.elements > 0 && !regionsSeen.has(r.id)).length * kOmissionLineTokens
  const headed = new Set(s.groups.filter((g) => g.items >= kMinGroupHeading).map((g) => g.id))
  let lineNoted = false
  for (const i of order) {
    if (include[i]) continue
    const e = s.elements[i]
    // In a headed group, an id ending in `_near_<word>` is written short in a row keyed by the word.
    const key = e.group !== undefined && headed.has(e.group) ? nearKey(e) : ''
    let cost = estimateTokens(elementToken(e, writtenId(e, key))) + 1
    // A region or group entered costs its heading and, when partly listed, omission lines.
    if (!regionsSeen.has(e.region)) cost += estimateTokens(`## ${e.region}`) + 1 + kOmissionLineTokens
    if (e.group !== undefined && !groupsSeen.has(e.group))
      cost += kGroupHeadingTokens + kOmissionLineTokens + (key ? estimateTokens(keyedNote(e, key, 'row')) : 0)
    // Outside groups, the first id that may open a keyed line pays for the note explaining them.
    const lineKey = e.group === undefined && !lineNoted ? nearKey(e) : ''
    if (lineKey) cost += estimateTokens(keyedNote(e, lineKey, 'line'))
    const rowKey = e.group !== undefined ? `${e.group}:${e.item}` : ''
    const newRow = rowKey !== '' && !rowsSeen.has(rowKey)
    // The text of a relevant element's row, or outside groups its card's, leads its line.
    if ((newRow || rowKey === '') && rel[i] > 0 && e.context)
      cost += estimateTokens(`row ${JSON.stringify(e.context)}:`) + 1
    if (newRow && key) cost += estimateTokens(`${key}:`) + 1
    if (cost > left) continue
    left -= cost
    include[i] = 1
    if (lineKey) lineNoted = true
    regionsSeen.add(e.region)
    if (e.group !== undefined) groupsSeen.add(e.group)
    if (rowKey) {
      // Rows listed apart from their neighbours are separated by a "+N rows like this" line.
      if (!rowsSeen.has(rowKey)) left -= kOmissionLineTokens
      rowsSeen.add(rowKey)
    }
  }
}

function render(s: PageSnapshot, include: Uint8Array, rel: Float64Array, head: string[]): string {
  const lines = [...head]
  const groups = new Map(s.groups.map((g) => [g.id, g]))
  const els = s.elements
  // Rows that hold listed-or-omitted elements, per group, in order: gaps count only these.
  const rowsOf = new Map<string, number[]>()
  // Listed elements per row, for the row's key; and each group's first keyed row, for its heading.
  const listedIn = new Map<string, number[]>()
  for (let i = 0; i < els.length; i++) {
    const e = els[i]
    if (e.group === undefined) continue
    const list = rowsOf.get(e.group) ?? []
    if (list[list.length - 1] !== e.item) list.push(e.item ?? 0)
    rowsOf.set(e.group, list)
    if (!include[i]) continue
    const key = `${e.group}:${e.item}`
    const members = listedIn.get(key)
    if (members) members.push(i)
    else listedIn.set(key, [i])
  }
  const lineKeys = keyedLines(els, include)
  // The first keyed line outside tables: its region's heading explains the form.
  const [firstKeyed, firstKey] = lineKeys.entries().next().value ?? [-1, '']
  let lineNote = firstKeyed >= 0 ? keyedNote(els[firstKeyed], firstKey, 'line') : ''
  let keyedAt = -1
  let keyedWith = ''
  const keyOf = new Map<string, string>()
  const keyedExample = new Map<string, string>()
  for (const [row, members] of listedIn) {
    const g = groups.get(els[members[0]].group!)
    // Keys are explained in the group's heading; groups too small for a heading list ids in full.
    const key = g && g.items >= kMinGroupHeading ? rowKey(els, members) : ''
    keyOf.set(row, key)
    if (key && !keyedExample.has(g!.id))
      keyedExample.set(g!.id, keyedNote(els[members.find((i) => nearKey(els[i]) === key)!], key, 'row'))
  }
  const rowsBetween = (group: string, after: number, before: number): number => {
    const list = rowsOf.get(group) ?? []
    return lowerBound(list, before) - lowerBound(list, after + 1)
  }
  let region: string | null = null
  let regionHeading = false
  let omittedHere = 0
  let group: string | undefined
  let groupHeading = false
  let lastItem = -1
  // The row being written: its elements and whether its text is shown.
  let row: number[] = []
  let rowContext = ''
  const flushRow = () => {
    if (!row.length) return
    const e0 = els[row[0]]
    const key = keyOf.get(`${e0.group}:${e0.item}`) ?? ''
    const tokens = row.map((i) => elementToken(els[i], writtenId(els[i], key)))
    const ctx = rowContext ? ` ${JSON.stringify(rowContext)}` : ''
    const lead = key ? `${key}${ctx}: ` : ctx ? `row${ctx}: ` : ''
    lines.push(lead + tokens.join(' '))
    row = []
    rowContext = ''
  }
  let groupSkipped = 0
  const closeGroup = () => {
    flushRow()
    // A group with nothing listed is summarised with its region, not row by row.
    if (!groupHeading) omittedHere += groupSkipped
    groupSkipped = 0
    if (group !== undefined) {
      const g = groups.get(group)
      if (g && lastItem >= 0) {
        const rest = rowsBetween(group, lastItem, Infinity)
        if (rest > 0) lines.push(`… +${rest} more ${g.kind === 'table' ? 'rows' : 'items'} like this`)
      }
    }
    group = undefined
    groupHeading = false
    lastItem = -1
  }
  const closeRegion = () => {
    closeGroup()
    if (region !== null && omittedHere > 0) {
      if (regionHeading) lines.push(`… +${omittedHere} more elements in ${region}`)
      else lines.push(`## ${region} (+${omittedHere} elements not listed)`)
    }
    omittedHere = 0
    regionHeading = false
  }
  let itemKey = ''
  let packed = 0
  let packedY = 0
  let packedAt = -1
  for (let i = 0; i < els.length; i++) {
    const e = els[i]
    if (e.region !== region) {
      closeRegion()
      region = e.region
    }
    if (e.group !== group) {
      closeGroup()
      group = e.group
    }
    if (!include[i]) {
      if (e.group === undefined) omittedHere++
      else groupSkipped++
      continue
    }
    if (!regionHeading) {
      const note = lineNote && region === els[firstKeyed].region ? lineNote : ''
      if (note) lineNote = ''
      lines.push(`## ${region}${note}`)
      regionHeading = true
    }
    if (e.group === undefined) {
      const lineKey = lineKeys.get(i)
      const ctx = rel[i] > 0 && e.context ? ` ${JSON.stringify(e.context)}` : ''
      if (lineKey !== undefined || ctx) {
        // Ids that end in one `_near_<word>` (a card's buttons) share a line keyed by the word,
        // led by the card's text when it bears on the request, as a table row is.
        const token = elementToken(e, writtenId(e, lineKey ?? ''))
        if (lineKey !== undefined && keyedAt === lines.length && keyedWith === lineKey)
          lines[lines.length - 1] += ' ' + token
        else {
          flushRow()
          lines.push(`${lineKey ?? 'row'}${ctx}: ${token}`)
          keyedAt = lines.length
          keyedWith = lineKey ?? ''
        }
        packed = 0
        continue
      }
      // Elements on one visual line of the page share a line of the listing (a nav bar, a
      // button bar); a newline is a token, a space is not.
      const sameLine =
        packed > 0 && packed < kPerLine && Math.abs(e.bounds.y - packedY) <= kSameLinePx && lines.length === packedAt
      if (sameLine && row.length === 0) {
        lines[lines.length - 1] += ' ' + elementToken(e)
        packed++
      } else {
        flushRow()
        lines.push(elementToken(e))
        packed = 1
        packedAt = lines.length
      }
      packedY = e.bounds.y
      continue
    }
    packed = 0
    const g = groups.get(e.group)
    if (!groupHeading) {
      if (g && g.items >= kMinGroupHeading) {
        const unit = g.kind === 'table' ? 'rows' : 'items'
        lines.push(
          `### ${g.kind} ${g.id}${g.label ? ` ${JSON.stringify(g.label)}` : ''}: ${g.items} ${unit}${keyedExample.get(g.id) ?? ''}`,
        )
      }
      groupHeading = true
    }
    const key = `${e.group}:${e.item}`
    if (key !== itemKey || !row.length) {
      flushRow()
      const item = e.item ?? 0
      const gap = rowsBetween(e.group, lastItem, item)
      if (gap > 0 && g) lines.push(`… +${gap} ${g.kind === 'table' ? 'rows' : 'items'} like this`)
      lastItem = Math.max(lastItem, item)
      itemKey = key
      if (rel[i] > 0 && e.context) rowContext = e.context
    }
    row.push(i)
  }
  closeRegion()
  return lines.join('\n')
}

/** Index of the first entry of sorted `list` that is >= `value`. */
function lowerBound(list: number[], value: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (list[mid] < value) lo = mid + 1
    else hi = mid
  }
  return lo
}
