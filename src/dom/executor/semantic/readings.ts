/**
 * The other readings of a descriptor (core/page/other-readings.ts), matched against the page:
 * an action said with the record it acts on, and a picture said for its action. The matcher
 * itself is passed in, as the place rung does (place.ts), so this file holds only the rules.
 */
import { translateDescriptor } from '../../../core/page/glossary'
import { actionOnRecord, pictureAsAction, sameActions } from '../../../core/page/other-readings'
import { normalize } from '../../locators'
import { kScopeDepth } from './scope'
import { type SemanticResult } from './score'
import { kHanSpace } from './tokens'

export interface Matchers {
  scope: Document
  /** The descriptor matched as written. */
  matchOne(description: string, scope: Document): SemanticResult
  /** As written, else translated. */
  asWrittenOrTranslated(description: string, scope: Document): SemanticResult
}

/** The words a control doing `action` may be named by: the action, those people say for it, in both languages. */
export function actionWords(action: string): string[] {
  return sameActions(action)
    .flatMap((a) => [a, ...translateDescriptor(a)])
    .map((a) => a.toLowerCase())
}

/** A result found by another reading of the descriptor, each reason saying which. */
export function readAs(result: SemanticResult, reading: string): SemanticResult {
  const note = `as "${reading}"`
  return {
    ...result,
    why: `${result.why ?? ''} (${note})`,
    candidates: result.candidates.map((c) => ({ ...c, why: `${c.why ?? ''} (${note})` })),
  }
}

/**
 * "remove invoice-0412.pdf", "吊销“数据同步”这个密钥": the action on the record it names. Null
 * when the descriptor says no such thing, or what was said already names a control that does the
 * action itself ("Delete account"). The action must sit on the record (onTheRecord), never on
 * another record or elsewhere on the page. Where the
 * record has no such action, the record itself is not what was asked for: a miss, with what was
 * found as candidates for the AI fallback, rather than the wrong element.
 */
export function onRecord(description: string, said: SemanticResult, m: Matchers): SemanticResult | null {
  const split = actionOnRecord(description)
  if (!split) return null
  const alike = sameActions(split.action)
  const actions = actionWords(split.action)
  // Its name starts with the action: "Delete account" for "delete account" (not a file entry whose
  // tip ends "press delete to remove").
  const saidLabel = (said.candidates[0]?.label ?? '').toLowerCase()
  if (said.best && actions.some((a) => saidLabel.startsWith(a))) return null
  const record = normalize(split.record).toLowerCase().replace(kHanSpace, '$1')
  const readings = alike.map((a) => `${a} in "${split.record}"`)
  const tried = readings
    .flatMap((reading) => [reading, ...translateDescriptor(reading)])
    .map((r) => ({ r, found: m.matchOne(r, m.scope) }))
  // Every control found doing the action (its name says it), in any reading; not the record itself
  // (a file entry whose tip says "press delete to remove" shows the record's own name).
  const doing = (label: string) => {
    const l = normalize(label).toLowerCase().replace(kHanSpace, '$1')
    return actions.some((a) => l.includes(a)) && !l.includes(record)
  }
  const doers = [
    ...new Set(
      tried.flatMap(({ found }) =>
        found.elements.filter((_el, i) => !found.candidates[i].weak && doing(found.candidates[i].label)),
      ),
    ),
  ]
  for (const { r, found } of tried) {
    if (!found.best && !found.ambiguous) continue
    const on = found.elements.filter((el) => doers.includes(el) && onTheRecord(el, record, doers))
    if (found.best && on.includes(found.best)) return readAs(found, r)
    if (on.length === 1) return readAs({ ...found, best: on[0], ambiguous: false }, r)
    if (on.length > 1) return readAs({ ...found, best: undefined, ambiguous: true }, r)
  }
  // Only what names the record itself ("invoice.pdf" for "remove invoice.pdf") is not what was asked.
  if (!said.best || !normalize(saidLabel).replace(kHanSpace, '$1').includes(record)) return null
  return {
    ...said,
    best: undefined,
    ambiguous: false,
    why: `"${split.record}" has no "${split.action}" control that could be found`,
    candidates: said.candidates.map((c) => ({ ...c, weak: true })),
  }
}

/**
 * Whether `el` is on the record: the smallest container above it that shows the record's words
 * holds no other control doing the action (a row holds its own Delete; a form that holds every
 * row's is no record).
 */
function onTheRecord(el: Element, record: string, doers: Element[]): boolean {
  let n = el.parentElement
  for (let i = 0; n && i < kScopeDepth; i++, n = n.parentElement) {
    if (!normalize(n.textContent).toLowerCase().replace(kHanSpace, '$1').includes(record)) continue
    const box = n
    return !doers.some((d) => d !== el && box.contains(d))
  }
  return false
}

/** "the gear icon", "齿轮图标": a picture said for its action, tried when nothing else fits. */
export function byPicture(description: string, m: Matchers): SemanticResult | null {
  for (const reading of pictureAsAction(description)) {
    const found = m.asWrittenOrTranslated(reading, m.scope)
    if (found.best || found.ambiguous) return readAs(found, reading)
  }
  return null
}
