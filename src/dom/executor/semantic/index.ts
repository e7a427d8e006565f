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
import { translateDescriptor } from '../../../core/page/glossary'
import { nameOrGuess, roleOf, searchRoots } from '../../locators'
import { type FieldLabels, formLabel, peopleLabel } from '../../words'
import { kGlyph, kindFit, partFits, roleOnly } from './kind'
import { fieldLabelTokens, kHan, kHanSpace, kNoTokens, nearTokens } from './tokens'
import { parseQuery, type SemanticQuery } from './query'
import {
  kAmbiguityMargin,
  kExactBonus,
  kMaxCandidates,
  kMinScore,
  kRoleOnlyScore,
  kSharePrecision,
  kShareRecall,
  kShareRole,
  kWeightNear,
  kWeightOwn,
  type Scored,
  scoreElement,
  type SemanticResult,
  toCandidate,
} from './score'
import { coveredBy, kMaxOrdinal, openModal, readingOrder, scopeOf } from './scope'
import { distinctVisible, sameAction, visibleProxy } from './dedupe'
import { type Entry, indexes, PageIndex, valueOf } from './page-index'
import { placeMatch } from './place'
import { kMaxWeakLooks } from './text-target'
import { actionWords, byPicture, onRecord, readAs } from './readings'
import { actionOnRecord, leadingAction } from '../../../core/page/other-readings'

export { tokenize } from '../../../core/page/descriptor'
export { parseQuery, type SemanticQuery } from './query'
export { kAmbiguityMargin, kMaxCandidates, kMinScore, scoreElement, type SemanticResult } from './score'
export { candidateId, interactiveIn } from './page-index'
export { visibleProxy } from './dedupe'
export { textTarget } from './text-target'

/**
 * Scores every interactive element of the page (all search roots) against the description; when
 * nothing fits as written, against its translation (a Chinese descriptor on an English page, or
 * the other way round: src/core/page/glossary.ts).
 */
export function semanticMatch(description: string, scope: Document = document): SemanticResult {
  const said = asWrittenOrTranslated(description, scope)
  const other = { scope, matchOne, asWrittenOrTranslated }
  return (
    onRecord(description, said, other) ?? (said.best || said.ambiguous ? said : byPicture(description, other)) ?? said
  )
}

/** A near match taken when nothing else comes close: its score at least this, the next this far below. */
const kLeadScore = 0.45
const kLeadMargin = 0.15

/**
 * Nothing passed the bar, but one candidate fits nearly and clearly best ("Billing 账单" for "the
 * Billing menu", "⇄ Swap" for "swap origin and destination", "15" for "June 15 in the fare
 * calendar"): the words said beyond its name describe it rather than name another element. Any
 * rival close to it leaves the miss as it was. The ladder asks this last, after the page's text
 * (a hover menu that is no control) had its turn.
 */
export function clearLeader(description: string, r: SemanticResult): SemanticResult {
  const [top, next] = r.candidates
  if (r.best || r.ambiguous || !top || top.score < kLeadScore || (next && next.score > top.score - kLeadMargin))
    return r
  // An action said with its record and not found there (onRecord): the record, however near, is not it.
  if (actionOnRecord(description)) return r
  // An action said ("remove the Last 7 days filter") that the near fit does not do: it is the
  // thing acted on, not the control that acts.
  const action = leadingAction(description)
  const label = top.label.toLowerCase()
  if (action && !actionWords(action).some((w) => label.includes(w))) return r
  const why = `${top.why ?? ''}; the one near fit, nothing else close`
  return {
    ...r,
    best: r.elements[0],
    ambiguous: false,
    why,
    candidates: [{ ...top, weak: undefined, why }, ...r.candidates.slice(1)],
  }
}

/** The descriptor as written, else its translation (glossary.ts), the first that finds something. */
function asWrittenOrTranslated(description: string, scope: Document): SemanticResult {
  const first = matchOne(description, scope)
  if (first.best || first.ambiguous) return fitsWhole(first) ? first : wholerInTranslation(description, first, scope)
  for (const other of translateDescriptor(description)) {
    const second = matchOne(other, scope)
    if (second.best || second.ambiguous) return readAs(second, other)
  }
  return first
}

/** A match on the whole of a name, not a part of it ("Password" for "password", not "Forgot password?"). */
const kWholeScore = 0.95
const topScore = (r: SemanticResult) => r.candidates[0]?.score ?? 0
const fitsWhole = (r: SemanticResult) => topScore(r) >= kWholeScore

/**
 * As written, the descriptor fits only part of a name, or a developer's id ("password" in "Forgot
 * password? 忘记密码", "ship" in `#btn-batch-ship`): where its translation fits clearly better
 * (a field labelled 密码; two 发货 buttons, then ambiguous), the person meant that.
 */
function wholerInTranslation(description: string, first: SemanticResult, scope: Document): SemanticResult {
  // Within a container said ("点赞 Bo 的帖子"), the part fits in the right container, and a whole
  // fit elsewhere (a post that mentions Bo) would be another record's.
  if (parseQuery(description).scope) return first
  let better = first
  let reading = ''
  for (const other of translateDescriptor(description)) {
    const second = matchOne(other, scope)
    if (
      (second.best || second.ambiguous) &&
      fitsWhole(second) &&
      topScore(second) > topScore(better) + kAmbiguityMargin
    ) {
      better = second
      reading = other
    }
  }
  return reading ? readAs(better, reading) : first
}

/** One descriptor being matched: what was said, and the page's index it is matched against. */
interface Match {
  q: SemanticQuery
  /** The quoted words, lower-cased. */
  quoted: string | undefined
  /** The words to find: the quoted text and every token. */
  needles: string[]
  /** Some word is Han: texts are compared without the spaces between Han characters. */
  han: boolean
  entries: Entry[]
  rowCache: Map<Element, string>
  labels: FieldLabels
  /** Whether an element is in the scope the descriptor names (any element when it names none). */
  inScope: (el: Element) => boolean
  /** The element's container of the named scope (memoized). */
  containerOf: (el: Element) => Element | null
  /** How well an entry's kind fits what was said (its role memoized). */
  fitOf: (e: Entry) => number
}

/** An element and the upper bound of its score (stage 1). */
interface Bound {
  el: Element
  ub: number
}

function matchOne(description: string, scope: Document): SemanticResult {
  const m = prepare(description, scope)
  const { q } = m
  const bounded = bounds(m)
  const best = scoreBest(m, bounded)
  const scored = narrow(m, best.scored, scope)
  // Layout is read only now, best first, until enough visible candidates are known.
  const visible = distinctVisible(
    scored,
    q.ordinal || q.place ? kMaxOrdinal : kMaxCandidates,
    undefined,
    undefined,
    q.kinds.includes('collapsible'),
    q.kinds.includes('checkbox'),
  )
  if (q.place) return placeMatch(q, visible, scope, matchOne)
  if (visible.length) return pick(m, visible, scored)
  return nearest(m, bounded, best.next, best.weakScored)
}

/** The descriptor parsed, the page's index brought up to date, and the memoized tests on it. */
function prepare(description: string, scope: Document): Match {
  const q = parseQuery(description)
  const quoted = q.quoted?.toLowerCase()
  const needles = quoted ? [quoted, ...q.tokens] : q.tokens
  const han = needles.some((t) => kHan.test(t))
  let index = indexes.get(scope)
  if (!index) indexes.set(scope, (index = new PageIndex()))
  const entries = index.current(searchRoots(scope))
  const { rowCache, labels } = index
  const scopeTexts = new Map<Element, boolean>()
  const containers = new Map<Element, Element | null>()
  const containerOf = (el: Element) => {
    let c = containers.get(el)
    if (c === undefined) containers.set(el, (c = q.scope ? scopeOf(el, q.scope, scopeTexts) : null))
    return c
  }
  return {
    q,
    quoted,
    needles,
    han,
    entries,
    rowCache,
    labels,
    containerOf,
    inScope: (el) => !q.scope || !!containerOf(el),
    fitOf: (e) => kindFit(q, e.el, (e.role ??= roleOf(e.el)), labels),
  }
}

/**
 * Stage 1, cheap: an upper bound of each element's score from the text it carries and the text
 * around it, best first. Stage 2 (`scoreBest`) scores fully, best bound first, and stops once no
 * bound can reach the ambiguity margin of the best score: on a page of thousands of controls
 * only a few are ever scored in full.
 */
function bounds(m: Match): Bound[] {
  const { q, quoted, needles, han, entries, rowCache, labels, inScope, fitOf } = m
  const onlyRole = roleOnly(q)
  const bounded: Bound[] = []
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
  return bounded.sort((a, b) => b.ub - a.ub)
}

/**
 * Stage 2: full scores, best bound first, until no bound can reach the best. `next` is where it
 * stopped in `bounded`: when nothing passes, the nearest candidates are scored from there.
 */
function scoreBest(m: Match, bounded: Bound[]): { scored: Scored[]; weakScored: Scored[]; next: number } {
  const { q, rowCache, labels } = m
  const scored: Scored[] = []
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
  return { scored, weakScored, next: i }
}

/**
 * The matches narrowed by what a person means beyond the words: every word said beats a missing
 * one, an open modal hides what is behind it, a named container is the smallest that holds the
 * match, a part named picks the part.
 */
function narrow(m: Match, matches: Scored[], doc: Document): Scored[] {
  const { q, containerOf } = m
  let scored = matches
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
    const modal = openModal(doc)
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
  return scored
}

/** A pager's numbered page, as labelled: "3", "page 3", "Go to page 3", "第 3 页". */
const kPageNumber = /^(?:(?:go\s+to\s+)?page\s*)?\d+$|^第\s*\d+\s*页$/i
/** A pager's step to the next or previous page, which is no page of its own. */
const kStepArrow = /\b(?:next|prev|previous)\b|上一|下一|前一|后一|[‹›«»<>]/i

/**
 * The one element meant among the visible matches, or an ambiguity: "a" takes the first of
 * equals, an ordinal counts in reading order, copies of one action are one, and a word said that
 * only a rival carries makes the match unclear.
 */
function pick(m: Match, visible: Scored[], scored: Scored[]): SemanticResult {
  const { q } = m
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
    // "the last page", "第二页" of a pager counts its pages, not its Next and Previous arrows.
    const pages = q.tokens.length === 1 && /^(?:page|一?页)$/.test(q.tokens[0])
    // Its numbered pages, where the pager has them: not a "Page" box to type a number into.
    const numbered = pages ? visible.filter((s) => kPageNumber.test(s.label.trim())) : []
    const counted = numbered.length ? numbered : pages ? ties.filter((s) => !kStepArrow.test(s.label)) : ties
    const pool = counted.map((s) => s.el).sort(readingOrder)
    const at = q.ordinal > 0 ? q.ordinal - 1 : pool.length + q.ordinal
    const pick = counted.find((s) => s.el === pool[at])
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

/**
 * Nothing passed the bar: the nearest by score, then by kind, then by text, marked weak, so the
 * AI fallback always has something to choose from, each shown by its words (never '').
 */
function nearest(m: Match, bounded: Bound[], next: number, weakScored: Scored[]): SemanticResult {
  const { q, needles, entries, rowCache, labels, inScope, fitOf } = m
  for (let i = next; i < bounded.length && weakScored.length < kMaxCandidates * 4; i++) {
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
