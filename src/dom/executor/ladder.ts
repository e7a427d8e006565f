/**
 * The locator ladder, in order, recording the rung that matched:
 *   1. `target_id`, the scanned element id (Observe's stable handle): stale → fail,
 *      never re-point;
 *   2. explicit selectors (`css:`, `xpath:`, `role:`, `text:`, `testid:`), primary then fallbacks,
 *     waiting for SPA mounts;
 *   3. the semantic description matched locally;
 *   4. otherwise a failure carrying the candidate list for the AI fallback.
 * A match must be unique: two candidates too close to call is AMBIGUOUS, never a guess.
 */
import type { PageTarget } from '../../core/page/command'
import { fail, type Candidate, type ExecFailure } from '../../core/exec'
import { observe, replacementOf, safeResolveHandle } from '../observe'
import { formatSelector, type ParsedSelector } from '../../core/page/selectors'
import { queryAll } from '../locators'
import { isVisible, kAvaUiAttr, labelOf } from './dom'
import { candidateId, clearLeader, kMaxCandidates, semanticMatch, textTarget } from './semantic'
import { expectingChange, kSettledMissMs, waitFor } from './wait'
import { openNamedContainer, revealMissing } from './reveal'

export type Rung = 'target_id' | 'selector' | 'semantic' | 'element'

/** A PageTarget, or an element already in hand (the focused one, a flow step's resolved element). */
export type TargetSpec = PageTarget & { element?: Element }

export interface Located {
  ok?: undefined
  el: Element
  rung: Rung
  /** The selector that matched, on the selector rung. */
  selector?: string
  /** Other elements that were considered, best first (semantic rung). */
  candidates?: Candidate[]
  /** Why the semantic rung chose it: which words matched which field (the debug trace). */
  why?: string
  /** Looks the element up again the same way (after a re-render); null when it cannot. */
  relocate: () => Element | null
  /**
   * The id's element had left the page and this one stands in its place (same kind, name,
   * container and rank, src/dom/observe/ids.ts): the step result says so.
   */
  replaced?: string
}

const kSuggestRescan = 'Observe the page again and use the new ids.'
const kSuggestDescribe = 'Describe the element by its visible label, or pick one of the candidates.'

/** Result of one look with the selectors: an element, "several", or nothing yet. */
type SelectorLook = { el: Element; selector: string } | { several: Element[]; selector: string } | null

function lookSelectors(locators: ParsedSelector[]): SelectorLook {
  for (const loc of locators) {
    const all = queryAll(loc).filter((el) => !el.closest(`[${kAvaUiAttr}]`))
    if (all.length === 0) continue
    if (all.length === 1) return { el: all[0], selector: loc.raw }
    // Several matches: the visible one is what a person sees; two visible ones is ambiguous.
    const visible = all.filter(isVisible)
    if (visible.length === 1) return { el: visible[0], selector: loc.raw }
    if (visible.length === 0) return { el: all[0], selector: loc.raw }
    return { several: visible, selector: loc.raw }
  }
  return null
}

function toCandidates(els: Element[], score = 1): Candidate[] {
  return els.slice(0, kMaxCandidates).map((el) => ({ id: candidateId(el), label: labelOf(el), score }))
}

/**
 * What a selector says in words, so a selector-only miss (a pack's selectors, a flow's) still
 * hands the fallback candidates: `role:button[name="Save"]` → `button "Save"`, `#user-name` →
 * `user name`. Null when it says nothing a person would.
 */
function selectorWords(loc: ParsedSelector): string | null {
  if (loc.kind === 'role') return loc.name ? `${loc.role} "${loc.name}"` : loc.role
  if (loc.kind === 'text') return `"${loc.text}"`
  if (loc.kind === 'testid') return loc.value.replace(/[-_]+/g, ' ')
  const words = [
    ...loc.value.matchAll(/(?:#|\.|name=["']?|placeholder=["']?|aria-label=["']?)([\p{L}\p{N}_-]{2,})/gu),
  ].map((m) => m[1].replace(/[-_]+/g, ' '))
  return words.length ? words.join(' ') : null
}

/**
 * The nearest visible controls to what a miss looked for, each marked weak: by the description,
 * else by the words of the selectors. Shared with recorded-flow replay (src/dom/recorder/resolve.ts)
 * so no locate path hands the AI fallback or a repair an empty list.
 */
export function weakCandidates(
  description: string | undefined,
  locators: ParsedSelector[],
): { candidates: Candidate[]; elements: Element[] } {
  const words = description?.trim() || locators.map(selectorWords).filter(Boolean).join(' ')
  // No words at all: semanticMatch of "" still lists the page's visible controls.
  const m = semanticMatch(words)
  return { candidates: m.candidates.map((c) => ({ ...c, weak: true })), elements: m.elements }
}

/** The one visible element showing the descriptor's text (in its scope), when no control fits. */
function textMatch(description: string): Element | Element[] | null {
  return textTarget(description, (text) => {
    try {
      return queryAll(`text:${text}`)
    } catch {
      return []
    }
  })
}

/**
 * Controls that page through a view (a calendar's arrows, a pager's Next): what they show changes
 * under them with every click, so their stand-in after a re-render is in a record that reads
 * otherwise (another month) and is still the same control. Any other control's stand-in must be in
 * the same record (docs/executor.md, "Re-rendered controls").
 */
const kPaging =
  /^\s*(prev(ious)?|next|older|newer|back|forward|earlier|later|上一[页个月年]?|下一[页个月年]?|前一[页个月年]?|后一[页个月年]?|[‹›«»<>←→◀▶◂▸❮❯])(\s+(page|month|year|week|day))?\s*$/iu

function byTargetId(id: string): Element | { replaced: Element } | 'stale' | 'unknown' {
  const handle = safeResolveHandle(id)
  if (handle.ok) return handle.value
  if (handle.error.code === 'ELEMENT_STALE') {
    // Re-rendered controls (a calendar's arrows, a pager's Next): a fresh scan says what stands
    // where the element stood; only an exact equivalent in the same record is taken.
    observe({ includeContent: false })
    const el = replacementOf(id, (now) => kPaging.test(labelOf(now)))
    return el ? { replaced: el } : 'stale'
  }
  return 'unknown'
}

export interface LocateOptions {
  timeoutMs: number
  signal?: AbortSignal
  /**
   * Let a description fall back to the one visible element showing its words when no control
   * fits (hover menus, clickable text). Off for fields: a label's text is never a field.
   */
  allowText?: boolean
  /**
   * Something is expected to appear (the caller knows better than the page's signals): wait the
   * whole timeout. Otherwise a miss on a settled page fails within about a second.
   */
  expectAppear?: boolean
}

export async function locate(spec: TargetSpec, opts: LocateOptions): Promise<Located | ExecFailure> {
  if (spec.element) {
    const el = spec.element
    return el.isConnected
      ? { el, rung: 'element', relocate: () => (el.isConnected ? el : null) }
      : fail('ELEMENT_STALE', 'The element left the page.')
  }
  if (spec.targetId) {
    const found = byTargetId(spec.targetId)
    if (found === 'stale') {
      return fail(
        'ELEMENT_STALE',
        `The element ${spec.targetId} has left the page since it was scanned (the page re-rendered).`,
        { rung: 'target_id', suggestion: kSuggestRescan },
      )
    }
    if (found !== 'unknown') {
      const el = 'replaced' in found ? found.replaced : found
      const replaced = 'replaced' in found ? spec.targetId : undefined
      return { el, rung: 'target_id', relocate: () => (el.isConnected ? el : null), ...(replaced ? { replaced } : {}) }
    }
    if (!spec.selectors?.length && !spec.semantic) {
      return fail('ELEMENT_STALE', `No element has the id ${spec.targetId} on this page any more.`, {
        rung: 'target_id',
        suggestion: kSuggestRescan,
      })
    }
  }

  const locators = spec.selectors ?? []
  const invalid = spec.invalid ?? []
  if (invalid.length && !locators.length && !spec.semantic) return fail('INVALID', invalid.join(' '))

  let ambiguity: ExecFailure | null = null
  let lastCandidates: Candidate[] = []
  const probe = (): Located | null => {
    const look = lookSelectors(locators)
    if (look && 'el' in look) {
      const selector = look.selector
      const loc = locators.find((l) => l.raw === selector)!
      return { el: look.el, rung: 'selector', selector, relocate: () => queryAll(loc).find(isVisible) ?? null }
    }
    if (look && 'several' in look && !spec.semantic) {
      ambiguity = fail(
        'AMBIGUOUS',
        `${look.selector} matches ${look.several.length} visible elements; which one is meant?`,
        {
          rung: 'selector',
          candidates: toCandidates(look.several),
          suggestion: 'Make the selector match one element, or describe the element by its label.',
        },
      )
      return null
    }
    if (spec.semantic) {
      const m = semanticMatch(spec.semantic)
      // Several selector matches and a description: the description picks among them.
      const pool = look && 'several' in look ? look.several : null
      lastCandidates = m.candidates
      if (pool) {
        const inPool = m.elements.filter((el) => pool.some((p) => p === el || p.contains(el) || el.contains(p)))
        if (inPool.length >= 1 && m.best && inPool[0] === m.best)
          return {
            el: m.best,
            rung: 'selector',
            selector: look!.selector,
            candidates: m.candidates,
            relocate: () => null,
          }
      }
      if (m.ambiguous) {
        ambiguity = fail(
          'AMBIGUOUS',
          `"${spec.semantic}" fits ${m.candidates.filter((c) => c.score >= m.candidates[0].score - 0.05).length} elements equally well: ${m.candidates.map((c) => `"${c.label}"`).join(', ')}.`,
          {
            rung: 'semantic',
            candidates: m.candidates,
            suggestion: kSuggestDescribe,
          },
        )
        return null
      }
      if (m.best) {
        const description = spec.semantic
        return {
          el: m.best,
          rung: 'semantic',
          candidates: m.candidates,
          why: m.why,
          relocate: () => semanticMatch(description).best ?? null,
        }
      }
      // Hover targets, menus and spans with click handlers are often plain elements: the one
      // visible element showing the words. Weak candidates are not a match.
      if (opts.allowText && m.candidates.every((c) => c.weak)) {
        const byText = textMatch(spec.semantic)
        if (Array.isArray(byText)) {
          ambiguity = fail(
            'AMBIGUOUS',
            `"${spec.semantic}" is the text of ${byText.length} elements: ${byText.map((el) => `"${labelOf(el)}"`).join(', ')}.`,
            { rung: 'semantic', candidates: toCandidates(byText, 0.5), suggestion: kSuggestDescribe },
          )
          return null
        }
        if (byText) {
          const description = spec.semantic
          const again = () => {
            const t = textMatch(description)
            return t && !Array.isArray(t) ? t : null
          }
          return {
            el: byText,
            rung: 'semantic',
            candidates: m.candidates,
            why: 'its visible text (no control fits)',
            relocate: again,
          }
        }
      }
    }
    return null
  }

  // "Export in the More menu": a named closed container is opened first.
  const opened = spec.semantic ? await openNamedContainer(spec.semantic, opts.signal) : null
  if (opened) return opened
  // An ambiguity is final at once: waiting will not make two equal buttons different. A miss on a
  // settled page is final after kSettledMissMs: the fallback gets its turn instead of a 10 s wait.
  const started = Date.now()
  const found = await waitFor(
    () => probe() ?? (ambiguity ? 'ambiguous' : null),
    opts.timeoutMs,
    opts.signal,
    document,
    opts.expectAppear ? {} : { settledMs: kSettledMissMs },
  )
  if (found && found !== 'ambiguous') return found
  const waited = Date.now() - started
  // Shown only on hover, or not loaded yet on a page that grows as it scrolls.
  const revealed = ambiguity ? null : await revealMissing(spec, probe, opts)
  if (revealed) return revealed
  if (ambiguity) return ambiguity
  // No control fits whole, no text shows it, the page is done changing: a near fit that nothing
  // else comes close to (semantic/index.ts `clearLeader`).
  const near = spec.semantic ? clearLeader(spec.semantic, semanticMatch(spec.semantic)) : null
  if (near?.best) {
    const description = spec.semantic!
    return {
      el: near.best,
      rung: 'semantic',
      candidates: near.candidates,
      why: near.why,
      relocate: () => clearLeader(description, semanticMatch(description)).best ?? null,
    }
  }
  // A selector-only miss: the words of the selectors find the nearest controls for the fallback.
  if (!lastCandidates.length) lastCandidates = weakCandidates(undefined, locators).candidates
  const settled = !opts.expectAppear && waited < opts.timeoutMs - 50
  const tried = [
    spec.targetId && `id ${spec.targetId}`,
    ...(spec.selectors ?? []).map((s) => `"${formatSelector(s)}"`),
    spec.semantic && `"${spec.semantic}"`,
  ]
    .filter(Boolean)
    .join(', ')
  const busy = expectingChange()
  const after = settled
    ? `on a settled page (looked for ${Math.round(waited / 100) / 10} s)`
    : `after ${Math.round(opts.timeoutMs / 100) / 10} s${busy ? ` (${busy})` : ''}`
  const closest = lastCandidates.length ? ` Closest: ${lastCandidates.map((c) => `"${c.label}"`).join(', ')}.` : ''
  return fail(
    'ELEMENT_NOT_FOUND',
    `Nothing on the page matches ${tried || '(no locator given)'} ${after}.${closest}${invalid.length ? ` ${invalid.join(' ')}` : ''}`,
    {
      candidates: lastCandidates,
      suggestion: 'Check that the page is the one expected, wait for it to load, or describe the element differently.',
    },
  )
}
