/**
 * Finding a recorded step's element at replay with the guarantees of all
 * selector alternatives are evaluated together on every look (a race decided by resilience
 * order, not by which query returns first), within the step's timeout. The match must be
 *   - unique: one element, and no semantic level finding two similar ones — positional levels
 *     (css, xpath, index) never pick among elements the semantic levels cannot tell apart;
 *   - similar to the recorded snapshot (tag, role, text, key attributes);
 *   - actionable: attached and not disabled (the executor checks the rest before acting).
 * Otherwise the step fails without acting and reports the candidates.
 */
import {
  alternativesOf,
  kSemanticLevels,
  type ElementSnapshot,
  type FlowSelector,
  type FlowSelectors,
  type SelectorLevel,
} from '../../core/flows/schema'
import { contextHash, kMinSimilarity, similarity } from '../../core/flows/similarity'
import type { StepCandidate, StepFailureCode } from '../../core/flows/replay'
import { sleep } from '../../core/sleep'
import { isDisabled, queryAll, roleOf } from '../locators'
import { isVisible, kAvaUiAttr, labelOf } from '../executor/dom'
import { contextText, generateSelectors, snapshotOf } from './selectors'
import { safeParseSelector } from '../../core/page/selectors'
import { weakCandidates } from '../executor/ladder'

const nonEmpty = <T>(list: T[], otherwise: () => T[]): T[] => (list.length ? list : otherwise())

/** Between two looks: quick enough for a 10-step flow under 500 ms, light enough to idle. */
const kPollMs = 30
/** Two similar matches must persist this long to count: a re-render may briefly show old and new. */
export const kAmbiguitySettleMs = 250
/** Elements looked at around a missing target, for the candidates list. */
const kMaxLookAround = 5

export type Resolution =
  | {
      ok: true
      el: Element
      level: SelectorLevel
      alternative: number
      selector: string
      similarity?: number
      ms: number
    }
  | {
      ok: false
      code: Extract<
        StepFailureCode,
        'ELEMENT_NOT_FOUND' | 'AMBIGUOUS' | 'NOT_SIMILAR' | 'NOT_ACTIONABLE' | 'INVALID' | 'CANCELLED'
      >
      message: string
      candidates: StepCandidate[]
      ms: number
    }

export interface ResolveOptions {
  timeoutMs: number
  signal?: AbortSignal
  /** A repaired selector: skip the snapshot comparison (the repair judged the element). */
  trusted?: boolean
  /** The action needs an enabled element (clicks and fills do; hover and waits do not). */
  needsEnabled?: boolean
  threshold?: number
  /** What a person would call the element (the step's description), for candidates when nothing matches. */
  description?: string
  /**
   * One look and no candidates from around the page: a check (verify) polls its own condition and
   * asks many times a second, so a miss must cost no more than the look itself.
   */
  quick?: boolean
}

interface Look {
  sel: FlowSelector
  alternative: number
  count: number
  /** Matches that look like the recorded element, with their score. */
  similar: { el: Element; score: number }[]
  best?: { el: Element; score: number }
}

function matches(sel: FlowSelector): Element[] {
  let all: Element[]
  try {
    all = queryAll(sel.value).filter((el) => !el.closest(`[${kAvaUiAttr}]`))
  } catch {
    return []
  }
  if (sel.type !== 'index') return all
  const el = all[sel.index ?? 0]
  return el && (!sel.context_hash || contextHash(contextText(el)) === sel.context_hash) ? [el] : []
}

function look(
  sel: FlowSelector,
  alternative: number,
  snapshot: ElementSnapshot | undefined,
  opts: ResolveOptions,
): Look {
  const all = matches(sel)
  // Hidden copies (templates, closed menus) do not compete with what a person sees.
  const visible = all.filter(isVisible)
  const pool = visible.length ? visible : all
  const scored = pool.map((el) => ({
    el,
    score: snapshot && !opts.trusted ? similarity(snapshot, snapshotOf(el)).score : 1,
  }))
  const threshold = opts.threshold ?? kMinSimilarity
  const best = scored.reduce<Look['best']>((b, s) => (!b || s.score > b.score ? s : b), undefined)
  return { sel, alternative, count: all.length, similar: scored.filter((s) => s.score >= threshold), best }
}

function candidate(l: Look, el?: Element, score?: number): StepCandidate {
  const c: StepCandidate = { selector: l.sel.value, level: l.sel.type, count: l.count }
  const target = el ?? l.best?.el
  if (target) c.label = labelOf(target)
  const s = score ?? l.best?.score
  if (s !== undefined) c.similarity = Math.round(s * 100) / 100
  return c
}

/**
 * Nothing of the recorded kind is on the page either: the ladder's weak candidates, from the
 * step's description or its selectors' words, so a repair never gets an empty list.
 */
function weakAround(
  selectors: FlowSelectors,
  snapshot: ElementSnapshot | undefined,
  description: string | undefined,
): StepCandidate[] {
  const parsed = alternativesOf(selectors).flatMap((s) => {
    const p = safeParseSelector(s.value)
    return p.success ? [p.data] : []
  })
  const said = description || (snapshot?.text ? `${snapshot.role ?? ''} "${snapshot.text}"`.trim() : '')
  const { candidates, elements } = weakCandidates(said || undefined, parsed)
  return elements.flatMap((el, i) => {
    const sel = generateSelectors(el)
    return sel
      ? [
          {
            selector: sel.primary.value,
            level: sel.primary.type,
            count: 1,
            label: candidates[i].label || labelOf(el),
            similarity: candidates[i].score,
          },
        ]
      : []
  })
}

/** Elements of the recorded kind on the page, most similar first: what a repair can choose from. */
function lookAround(snapshot: ElementSnapshot | undefined): StepCandidate[] {
  if (!snapshot) return []
  const pool = [...document.querySelectorAll(snapshot.tag)].filter(
    (el) => isVisible(el) && !el.closest(`[${kAvaUiAttr}]`) && (!snapshot.role || roleOf(el) === snapshot.role),
  )
  return pool
    .map((el) => ({ el, score: similarity(snapshot, snapshotOf(el)).score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, kMaxLookAround)
    .flatMap(({ el, score }) => {
      const sel = generateSelectors(el)
      return sel
        ? [
            {
              selector: sel.primary.value,
              level: sel.primary.type,
              count: 1,
              label: labelOf(el),
              similarity: Math.round(score * 100) / 100,
            },
          ]
        : []
    })
}

export async function resolveTarget(
  selectors: FlowSelectors,
  snapshot: ElementSnapshot | undefined,
  opts: ResolveOptions,
): Promise<Resolution> {
  const started = performance.now()
  const deadline = started + opts.timeoutMs
  const alternatives = alternativesOf(selectors)
  let ambiguousSince = -1
  let last: {
    code: 'AMBIGUOUS' | 'NOT_SIMILAR' | 'NOT_ACTIONABLE' | 'ELEMENT_NOT_FOUND'
    message: string
    candidates: StepCandidate[]
  } | null
  const elapsed = () => Math.round(performance.now() - started)

  for (;;) {
    if (opts.signal?.aborted)
      return { ok: false, code: 'CANCELLED', message: 'The replay was stopped.', candidates: [], ms: elapsed() }
    const looks = alternatives.map((sel, i) => look(sel, i, snapshot, opts))
    const semanticTwice = looks.find((l) => kSemanticLevels.has(l.sel.type) && l.similar.length >= 2)
    const unique = looks.filter((l) => l.similar.length === 1)
    const semanticUnique = unique.filter((l) => kSemanticLevels.has(l.sel.type))
    const conflict = new Set(semanticUnique.map((l) => l.similar[0].el)).size > 1
    if (semanticTwice || conflict) {
      const why = semanticTwice
        ? `${semanticTwice.sel.value} now matches ${semanticTwice.similar.length} elements that look like the recorded one`
        : `the selectors point at different elements (${semanticUnique.map((l) => `${l.sel.value} → "${labelOf(l.similar[0].el)}"`).join(', ')})`
      const candidates = semanticTwice
        ? semanticTwice.similar.map((s) => candidate(semanticTwice, s.el, s.score))
        : semanticUnique.map((l) => candidate(l, l.similar[0].el, l.similar[0].score))
      last = { code: 'AMBIGUOUS', message: `Not sure which element to use: ${why}. Nothing was done.`, candidates }
      if (ambiguousSince < 0) ambiguousSince = performance.now()
      // Two equal buttons stay equal: once it has lasted, waiting longer will not decide it.
      if (performance.now() - ambiguousSince >= kAmbiguitySettleMs) return { ok: false, ...last, ms: elapsed() }
    } else {
      ambiguousSince = -1
      const winner = semanticUnique[0] ?? unique[0]
      if (winner) {
        const { el, score } = winner.similar[0]
        if (!opts.needsEnabled || !isDisabled(el)) {
          return {
            ok: true,
            el,
            level: winner.sel.type,
            alternative: winner.alternative,
            selector: winner.sel.value,
            ...(snapshot && !opts.trusted ? { similarity: score } : {}),
            ms: elapsed(),
          }
        }
        last = {
          code: 'NOT_ACTIONABLE',
          message: `"${labelOf(el)}" is disabled.`,
          candidates: [candidate(winner, el, score)],
        }
      } else {
        const dissimilar = looks.filter((l) => l.count > 0)
        if (dissimilar.length) {
          const shown = dissimilar[0].best ? snapshotOf(dissimilar[0].best.el) : null
          const reasons = shown && snapshot ? similarity(snapshot, shown).reasons.slice(0, 3).join('; ') : ''
          last = {
            code: dissimilar.some((l) => l.similar.length > 1) ? 'AMBIGUOUS' : 'NOT_SIMILAR',
            message: `The selectors match, but not an element like the recorded one${reasons ? ` (${reasons})` : ''}. Nothing was done.`,
            candidates: dissimilar.map((l) => candidate(l)),
          }
          if (last.code === 'AMBIGUOUS')
            last.message = `${dissimilar.find((l) => l.similar.length > 1)!.sel.value} matches several elements like the recorded one. Nothing was done.`
        } else last = null
      }
    }
    if (performance.now() + kPollMs > deadline) break
    await sleep(kPollMs, opts.signal).catch(() => undefined) // the loop's first check reports CANCELLED
  }
  if (opts.quick)
    return last
      ? { ok: false, ...last, ms: elapsed() }
      : {
          ok: false,
          code: 'ELEMENT_NOT_FOUND',
          message: 'No element matches the selectors.',
          candidates: [],
          ms: elapsed(),
        }
  // Something else sits where the element was: the look-alikes elsewhere are what a repair needs.
  if (last?.code === 'NOT_SIMILAR')
    return {
      ok: false,
      ...last,
      candidates: [
        ...last.candidates,
        ...nonEmpty(lookAround(snapshot), () => weakAround(selectors, snapshot, opts.description)),
      ],
      ms: elapsed(),
    }
  if (last) return { ok: false, ...last, ms: elapsed() }
  return {
    ok: false,
    code: 'ELEMENT_NOT_FOUND',
    message: `No element matches any of ${alternatives.length} selector(s) after ${Math.round(opts.timeoutMs)} ms (${alternatives.map((s) => s.type).join(', ')}). Nothing was done.`,
    candidates: nonEmpty(lookAround(snapshot), () => weakAround(selectors, snapshot, opts.description)),
    ms: elapsed(),
  }
}
