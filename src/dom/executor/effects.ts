/**
 * What an action changed: URL, DOM mutations, new modals,
 * focus. Also the evidence that an action did anything at all: a click that changes nothing
 * where something was expected is a failure, not a success.
 */
import type { ExecChanges, ModalChange } from '../../core/exec'
import { sleep } from '../../core/sleep'
import { openModals } from '../observe'
import { searchRoots } from '../locators'
import { nextPaint } from './wait'

/**
 * A click's effect may come after a fetch or an animation frame; this long without any change
 * (DOM, URL, focus, the target's state, a navigation) means there was none. Spent only when
 * nothing happens: the first change ends the wait.
 */
export const kEffectWindowMs = 1_000

/** DOM silent this long after the first change: the page has finished answering. */
const kSettleQuietMs = 30
/** Never spend longer than this collecting the rest of an answer (animations keep mutating). */
const kSettleMaxMs = 300

export interface EffectWatch {
  /**
   * Resolves true at the first change, false when `ms` pass with none. With `settle`, after a
   * change it also waits for the DOM to go quiet, so the counts describe the whole answer.
   */
  waitForEffect(ms: number, extra?: () => boolean, settle?: boolean): Promise<boolean>
  /** Stops watching and reports what changed. */
  finish(): ExecChanges & { navigating: boolean }
  readonly navigating: boolean
}

/** The focused element, looking into open shadow roots (document.activeElement stops at the host). */
function deepActive(doc: Document): Element | null {
  let el = doc.activeElement
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
  return el
}

function modalKey(m: ModalChange): string {
  return `${m.kind}:${m.label}`
}

export function watchEffects(doc: Document = document): EffectWatch {
  const view = doc.defaultView ?? window
  const url = view.location.href
  const focus = deepActive(doc)
  const modals = new Set(openModals(doc).map(modalKey))
  let mutations = 0
  let navigating = false
  let wake: (() => void) | null = null
  const observer = new MutationObserver((records) => {
    mutations += records.length
    wake?.()
  })
  // Shadow trees are not part of the document's subtree for MutationObserver: watch each one.
  for (const root of searchRoots(doc)) {
    if (root.nodeType === 11)
      observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true })
  }
  observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true })
  const onLeave = () => {
    navigating = true
    wake?.()
  }
  view.addEventListener('beforeunload', onLeave)
  view.addEventListener('pagehide', onLeave)
  // Focus counts when it went somewhere: a click on something unfocusable only blurs, and a
  // blur alone is no sign the page reacted.
  const focusMoved = () => {
    const now = deepActive(doc)
    return now !== focus && now !== null && now !== doc.body
  }
  const changed = (extra?: () => boolean) =>
    navigating || mutations > 0 || view.location.href !== url || focusMoved() || (extra?.() ?? false)
  let done = false
  return {
    get navigating() {
      return navigating
    },
    async waitForEffect(ms, extra, settle = true) {
      if (changed(extra)) return true
      const hit = await new Promise<boolean>((resolve) => {
        const poll = setInterval(() => changed(extra) && finish(true), 50)
        const timer = setTimeout(() => finish(changed(extra)), ms)
        const finish = (v: boolean) => {
          clearInterval(poll)
          clearTimeout(timer)
          wake = null
          resolve(v)
        }
        wake = () => finish(true)
      })
      // Let the page finish what started (an async validation, a transition), so the counts
      // describe the whole answer: until the DOM is quiet for a moment, within a cap.
      if (hit && settle && !navigating) {
        await nextPaint(view)
        const started = Date.now()
        for (let seen = -1; seen !== mutations && !navigating && Date.now() - started < kSettleMaxMs;) {
          seen = mutations
          await sleep(kSettleQuietMs)
        }
      }
      return hit
    },
    finish() {
      if (!done) {
        done = true
        observer.disconnect()
        view.removeEventListener('beforeunload', onLeave)
        view.removeEventListener('pagehide', onLeave)
      }
      const now = view.location.href
      const newModals = navigating
        ? []
        : openModals(doc)
            .filter((m) => !modals.has(modalKey(m)))
            .map((m) => ({ kind: m.kind, label: m.label }))
      return {
        urlChanged: now !== url,
        ...(now !== url ? { newUrl: now } : {}),
        domMutations: mutations,
        newModals,
        focusChanged: deepActive(doc) !== focus,
        navigating,
      }
    },
  }
}
