/**
 * Scoring one element against a descriptor: its own words, its attributes and the words around it,
 * weighted, with its kind's fit; and a scored element as a candidate.
 */
import { type Candidate } from '../../../core/exec'
import { type Descriptor, tokenize } from '../../../core/page/descriptor'
import { normalize, roleOf } from '../../locators'
import {
  bareIconWords,
  codeWords,
  FieldLabels,
  glyphWords,
  ownWords,
  partWords,
  peopleLabel,
  textAround,
} from '../../words'
import { isFieldEl, kContainerRoles, kFieldKinds, kGlyph, kindFit, roleOnly, stateFits } from './kind'
import {
  kHan,
  kHanSpace,
  kSectionNumber,
  kTokenCacheMax,
  stem,
  tokenCache,
  tokensOf,
  withAbbreviations,
} from './tokens'
import { type SemanticQuery } from './query'
import { candidateId } from './page-index'

/** Weights of where a query word was found: the element's own label counts most. */
export const kWeightOwn = 1

export const kWeightAttr = 0.8

export const kWeightNear = 0.6

export const kWeightPartial = 0.5

/** Share of each part of the score; they add up to 1 (plus the exact-label bonus). */
export const kShareRecall = 0.55

export const kSharePrecision = 0.2

export const kShareRole = 0.25

export const kExactBonus = 0.15

/** Taken off an element of another kind than the description names. */
export const kWrongKindPenalty = 0.15

/** Every element of the kind named by a role-only descriptor scores this: all equal, so two are a tie. */
export const kRoleOnlyScore = 0.9

/**
 * Below this a "match" is a shared common word or only text nearby: a description matched by the
 * text next to a field, with no role word to back it, scores 0.46 and must not win on its own.
 */
export const kMinScore = 0.5

/** Two visible candidates closer than this are too close to call: AMBIGUOUS, never a guess. */
export const kAmbiguityMargin = 0.05

/** Candidates handed to the AI fallback. */
export const kMaxCandidates = 5

export interface Scored {
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
  // Shown with a candidate: its own words, else what it shows and where it is (never empty).
  const label = own.slice(0, 50) || peopleLabel(el)
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

export function toCandidate(s: Scored, weak = false): Candidate {
  return {
    id: candidateId(s.el),
    label: s.label,
    score: Math.round(Math.min(1, s.score) * 100) / 100,
    why: s.why,
    ...(weak ? { weak: true } : {}),
  }
}
