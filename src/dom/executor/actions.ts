/**
 * The DOM actions, one descriptor each in one registry (STYLE.md): the nine instruction types
 * plus what the registry's step actions and uploads need: dblclick, fill, type, check, uncheck, focus, submit, getText, getAttribute, upload.
 * What each action is (its fields, whether it needs an element, its gate) is its descriptor in
 * src/core/vocabulary.ts; here is only how the page runs it: `run` gets the located element.
 */
import { stepResult, type ExecChanges, type ExecOutcome, type ExecSuccess, type StepResult } from '../../core/exec'
import type { DomActionName, PageActionOf, ScrollDirection, WaitState } from '../../core/page/command'
import { extractKeywords, missingKeywords } from '../../core/verify'
import { urlMatches } from '../../core/glob'
import { openModals } from '../observe'
import { normalize, queryAll, searchRoots, frameDocument } from '../locators'
import { ensureActionable } from './actionability'
import { displayedValue, isVisible, kAvaUiAttr, quoteLabel, quoteTexts, shownValue, viewOf } from './dom'
import { watchEffects } from './effects'
import { pressKey } from './events'
import { fail } from '../../core/exec'
import type { Located, TargetSpec } from './ladder'
import { fileInputOf, uploadFiles } from './native'
import { checkOp, clickOp, dragOp, enterTextOp, hoverOp, type OpContext } from './ops'
import { lostBeforeSubmit, submitsForm } from './field-check'
import { chooseNative, clickNativeOption, selectOfOption, widgetFor } from './widgets'
import { kSettledMissMs, nextFrame, settle, waitFor } from './wait'

export { kDomActionNames, type DomActionName, type ScrollDirection, type WaitState } from '../../core/page/command'

/** One page-side command of one action: its PageAction, whose target may be an element already in hand. */
export type DomCommandOf<N extends DomActionName> = N extends DomActionName
  ? Omit<PageActionOf<N>, 'target'> & { target?: TargetSpec }
  : never
/** One page-side command: a PageAction whose target may be an element already in hand. */
export type DomCommand = DomCommandOf<DomActionName>

export interface ActionRun<N extends DomActionName = DomActionName> {
  cmd: DomCommandOf<N>
  /** The located target, for actions that need one. */
  target?: Located
  ctx: OpContext
  timeoutMs: number
}

/** How the page runs one DOM action (what the action is lives in its descriptor, src/core/vocabulary.ts). */
export interface DomActionRunner<N extends DomActionName = DomActionName> {
  name: N
  run(run: ActionRun<N>): Promise<ExecOutcome>
}

/** A runner typed by its action: `run.cmd` has that action's fields (the vocabulary's). */
function runner<N extends DomActionName>(r: DomActionRunner<N>): DomActionRunner {
  return r as unknown as DomActionRunner
}

/** text rendered just after a navigation or a fetch gets this long to appear. */
const kVerifyWaitMs = 3_000
/** DOM silent this long counts as settled. */
export const kQuietWindowMs = 500
/** Long enough to see a submit start a navigation; a script-handled submit may change nothing visible. */
const kSubmitWatchMs = 200
/** A key's answer (a submit, a navigation) starts within this; nothing is required to change. */
const kKeyWatchMs = 100
/** A screen's worth of scrolling keeps some overlap, as Page Down does. */
const kPageScrollRatio = 0.8

const noChanges = (): ExecChanges => ({ urlChanged: false, domMutations: 0, newModals: [], focusChanged: false })

function ok(detail: string, run: ActionRun, extra: Partial<ExecSuccess> = {}): ExecSuccess {
  const out: ExecSuccess = { ok: true, detail, ...extra }
  if (run.target) {
    out.rung = run.target.rung
    if (run.target.candidates && run.target.candidates.length > 1) out.candidates = run.target.candidates
  }
  return out
}

function forcedNote(forced: boolean): string {
  return forced ? ' (forced through the DOM: it was attached but not visible)' : ''
}

const kClickName: Record<string, string> = { left: 'Clicked', right: 'Right-clicked', middle: 'Middle-clicked' }
const kClickResult: Record<string, StepResult> = { left: 'clicked', right: 'rightClicked', middle: 'middleClicked' }

/** The fields an action may carry besides its name, for a runner shared by several actions. */
type FieldsOf<N extends DomActionName> = Partial<Omit<DomCommandOf<N>, 'action'>>

/** A click, or a double-click (`double`: two clicks whatever the step says, on the left button). */
function clickAction(name: 'click' | 'dblclick', double: boolean): DomActionRunner {
  return runner({
    name,
    async run(run) {
      const cmd: FieldsOf<'click'> = run.cmd
      const count = double ? 2 : (cmd.count ?? 1)
      // An option of a native list: the person's click in the open list chooses it.
      const native = !double && (cmd.button ?? 'left') === 'left' ? selectOfOption(run.target!.el) : null
      if (native) {
        const chose = await clickNativeOption(native.option, native.select, {
          ...run.ctx,
          relocate: run.target!.relocate,
        })
        return chose.ok ? { ...chose, ...ok(chose.detail, run, chose) } : chose
      }
      // An option of a list that takes several values: a person adds it with Ctrl (⌘ on macOS)
      // held, so the options chosen before stay chosen (WAI-ARIA APG, listbox).
      const adds =
        !double && run.target!.el.closest('[aria-multiselectable=true]') && run.target!.el.closest('[role=option]')
          ? /Mac/.test(navigator.platform)
            ? { metaKey: true }
            : { ctrlKey: true }
          : undefined
      // A submit button sends what the form holds now: not when a field a step filled was reset.
      if (submitsForm(run.target!.el)) {
        const lost = lostBeforeSubmit(run.target!.el)
        if (lost) return lost
      }
      // A canvas answers a click with pixels, not DOM: no effect to wait for.
      const pixels = !!cmd.at && run.target!.el.localName === 'canvas'
      const r = await clickOp(
        run.target!.el,
        { ...run.ctx, relocate: run.target!.relocate },
        {
          button: cmd.button,
          count,
          atPage: cmd.at,
          ...(adds ? { modifiers: adds } : {}),
          ...(pixels ? { expectEffect: false } : {}),
        },
      )
      if (!r.ok) return r
      const verb = count === 2 ? 'Double-clicked' : kClickName[cmd.button ?? 'left']
      // "Forced through the DOM" is for the CLI, logs and the planner: the person reads what was done.
      const msg = stepResult(count === 2 ? 'doubleClicked' : kClickResult[cmd.button ?? 'left'], {
        label: quoteLabel(r.el),
      })
      return ok(`${verb} ${quoteLabel(r.el)}${forcedNote(r.forced)}`, run, {
        navigating: r.navigating,
        forced: r.forced,
        changes: r.changes,
        msg,
      })
    },
  })
}

function textAction(name: 'fill' | 'type'): DomActionRunner {
  return runner({
    name,
    async run(run) {
      const cmd: FieldsOf<'type'> = run.cmd
      const value = String(cmd.value ?? '')
      const r = await enterTextOp(
        run.target!.el,
        value,
        { ...run.ctx, relocate: run.target!.relocate },
        name,
        cmd.delayMs,
      )
      if (!r.ok) return r
      const note = r.note ? ` (${r.note})` : ''
      const shown = shownValue(r.el, value)
      // The value masked exactly as in the detail; a note (a date typed in another form) keeps the detail.
      const said = r.note ? {} : { msg: stepResult('typed', { value: `"${shown}"`, label: quoteLabel(r.el) }) }
      return ok(`Typed "${shown}" into ${quoteLabel(r.el)}${note}${forcedNote(r.forced)}`, run, {
        forced: r.forced,
        changes: r.changes,
        sensitive: r.sensitive || undefined,
        ...said,
      })
    },
  })
}

/** Ticks a box, or (`want` false) clears it. */
function checkAction(name: 'check' | 'uncheck', want: boolean): DomActionRunner {
  return runner({
    name,
    async run(run) {
      const r = await checkOp(run.target!.el, want, { ...run.ctx, relocate: run.target!.relocate })
      if (!r.ok) return r
      const said: StepResult = r.already ? (want ? 'wasChecked' : 'wasUnchecked') : want ? 'checked' : 'unchecked'
      return ok(
        r.already
          ? `${quoteLabel(r.el)} was already ${want ? 'checked' : 'unchecked'}`
          : `${want ? 'Checked' : 'Unchecked'} ${quoteLabel(r.el)}`,
        run,
        { changes: r.changes, msg: stepResult(said, { label: quoteLabel(r.el) }) },
      )
    },
  })
}

function scrolls(n: Element): boolean {
  const style = viewOf(n).getComputedStyle(n)
  return (
    /(auto|scroll|overlay)/.test(style.overflowY + style.overflowX) &&
    (n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1)
  )
}

/** Ancestors looked through for the scroll box a named element stands for ("the terms" → the box beside its heading). */
const kBoxSearchDepth = 4

/**
 * Where a scroll with a target goes: the element when it scrolls itself, else its nearest scrolling
 * ancestor, else the one scroll box next to it (a heading's or a checkbox's box: "scroll to the
 * bottom of the terms"): the only scrolling element in the nearest ancestor that holds one.
 */
function scrollContainer(el: Element): Element | null {
  for (let n: Element | null = el; n; n = n.parentElement)
    if (n !== n.ownerDocument.documentElement && n !== n.ownerDocument.body && scrolls(n)) return n
  let n: Element | null = el.parentElement
  for (let depth = 0; n && depth < kBoxSearchDepth && n !== n.ownerDocument.body; depth++, n = n.parentElement) {
    const scrolling = [...n.querySelectorAll('*')].filter((c) => scrolls(c) && isVisible(c))
    // Outermost ones only: a box inside the terms box is part of the terms.
    const boxes = scrolling.filter((c) => !scrolling.some((o) => o !== c && o.contains(c)))
    if (boxes.length === 1) return boxes[0]
    if (boxes.length > 1) return null
  }
  return null
}

/** The page's own scroller, or, in an app whose document does not scroll, its largest scroll box. */
function pageScroller(doc: Document): Element | null {
  const root = doc.scrollingElement ?? doc.documentElement
  if (root.scrollHeight > root.clientHeight + 1) return null
  let best: Element | null = null
  let area = 0
  for (const el of doc.body?.querySelectorAll('*') ?? []) {
    if (!scrolls(el) || !isVisible(el)) continue
    const r = el.getBoundingClientRect()
    if (r.width * r.height > area) {
      area = r.width * r.height
      best = el
    }
  }
  return best
}

/** How far down (or along) a scroller is: "at the top", "at the end", "420 of 1480 px". */
function whereScrolled(scroller: Element, vertical: boolean): { text: string; atEnd: boolean; atTop: boolean } {
  const pos = vertical ? scroller.scrollTop : scroller.scrollLeft
  const max = vertical ? scroller.scrollHeight - scroller.clientHeight : scroller.scrollWidth - scroller.clientWidth
  const atEnd = pos >= max - 1
  const atTop = pos <= 0
  return {
    text: atEnd
      ? `at its end (${Math.round(pos)} of ${Math.round(max)} px)`
      : atTop
        ? 'at its top'
        : `${Math.round(pos)} of ${Math.round(max)} px`,
    atEnd,
    atTop,
  }
}

/** Pages that load more as they reach the end get this many looks when "the bottom" is asked for. */
const kBottomTries = 4

async function scrollBox(
  box: Element | null,
  dir: ScrollDirection,
  amount?: number,
): Promise<{ before: number; after: number; scroller: Element }> {
  const doc = box?.ownerDocument ?? document
  const scroller = box ?? doc.scrollingElement ?? doc.documentElement
  const view = viewOf(scroller)
  const vertical = dir !== 'left' && dir !== 'right'
  const before = vertical ? scroller.scrollTop : scroller.scrollLeft
  const page =
    (vertical ? (box ? box.clientHeight : view.innerHeight) : box ? box.clientWidth : view.innerWidth) *
    kPageScrollRatio
  const step = amount ?? page
  const to: Record<ScrollDirection, () => ScrollToOptions> = {
    top: () => ({ top: 0 }),
    bottom: () => ({ top: scroller.scrollHeight }),
    up: () => ({ top: before - step }),
    down: () => ({ top: before + step }),
    left: () => ({ left: before - step }),
    right: () => ({ left: before + step }),
  }
  for (let i = 0; i < (dir === 'bottom' ? kBottomTries : 1); i++) {
    scroller.scrollTo({ ...to[dir](), behavior: 'instant' })
    // The page's scroll listeners run (a terms box enabling "I accept", a list loading more).
    await nextFrame(view)
    await settle()
    if (dir !== 'bottom' || whereScrolled(scroller, true).atEnd) break
  }
  return { before, after: vertical ? scroller.scrollTop : scroller.scrollLeft, scroller }
}

/** Visible text of the page, its open shadow roots and same-origin frames. */
export function visibleText(doc: Document = document): string {
  const parts: string[] = []
  for (const root of searchRoots(doc)) {
    if (root.nodeType === 9) parts.push((root as Document).body?.innerText ?? '')
    else for (const c of (root as ShadowRoot).children) parts.push((c as HTMLElement).innerText ?? c.textContent ?? '')
  }
  return parts.join('\n')
}

// Linear-time, never a RegExp built from the pattern; re-exported for the executor's callers.
export { urlMatches } from '../../core/glob'

function stateHolds(els: Element[], state: WaitState): boolean {
  if (state === 'attached') return els.length > 0
  if (state === 'detached') return els.length === 0
  const anyVisible = els.some(isVisible)
  return state === 'visible' ? anyVisible : !anyVisible
}

/** Resolves when the DOM has been silent for `quietMs`. */
function quietPage(quietMs: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    let timer = setTimeout(() => done(true), quietMs)
    const cap = setTimeout(() => done(false), timeoutMs)
    const observer = new MutationObserver(() => {
      clearTimeout(timer)
      timer = setTimeout(() => done(true), quietMs)
    })
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
    const done = (v: boolean) => {
      observer.disconnect()
      clearTimeout(timer)
      clearTimeout(cap)
      signal?.removeEventListener('abort', onAbort)
      resolve(v)
    }
    const onAbort = () => done(false)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

const kActions: DomActionRunner[] = [
  runner({
    name: 'navigate',
    async run(run) {
      const raw = String(run.cmd.value ?? '')
      let url: URL
      try {
        url = new URL(raw, location.href)
      } catch {
        return fail('INVALID', `"${raw}" is not a URL.`)
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return fail('INVALID', `Ava only opens http(s) pages, not ${url.protocol}`)
      const sameDocument = url.href.split('#')[0] === location.href.split('#')[0] && url.hash !== ''
      location.assign(url.href)
      return ok(`Opening ${url.href}`, run, {
        navigating: !sameDocument,
        changes: { ...noChanges(), urlChanged: url.href !== location.href || sameDocument, newUrl: url.href },
        msg: stepResult('opened', { url: url.href }),
      })
    },
  }),
  clickAction('click', false),
  clickAction('dblclick', true),
  textAction('fill'),
  textAction('type'),
  runner({
    name: 'select',
    async run(run) {
      const values = (Array.isArray(run.cmd.value) ? run.cmd.value : [run.cmd.value ?? '']).map(String)
      const el = run.target!.el
      const ctx = { ...run.ctx, relocate: run.target!.relocate }
      const V = viewOf(el)
      const native =
        el instanceof V.HTMLSelectElement
          ? el
          : el instanceof V.HTMLLabelElement && el.control instanceof V.HTMLSelectElement
            ? el.control
            : null
      const r = native
        ? await chooseNative(native, values, ctx, { replace: run.cmd.replace })
        : await (async () => {
            const found = widgetFor(el)
            if (!found)
              return fail(
                'NOT_ACTIONABLE',
                `${quoteLabel(el)} is not a select, dropdown, cascader, date picker or menu.`,
                { reason: 'wrong-kind', suggestion: 'Click it and then click the option.' },
              )
            return found.widget.choose(found.root, { values, ctx })
          })()
      return r.ok ? { ...r, ...ok(r.detail, run, r) } : r
    },
  }),
  checkAction('check', true),
  checkAction('uncheck', false),
  runner({
    name: 'hover',
    async run(run) {
      const r = await hoverOp(run.target!.el, { ...run.ctx, relocate: run.target!.relocate })
      if (!r.ok) return r
      return ok(`Hovered ${quoteLabel(r.el)}`, run, {
        changes: r.changes,
        msg: stepResult('hovered', { label: quoteLabel(r.el) }),
      })
    },
  }),
  runner({
    name: 'drag',
    async run(run) {
      if (!run.cmd.path || run.cmd.path.length < 2) return fail('INVALID', 'drag needs a path of at least two points.')
      const r = await dragOp(run.target!.el, run.cmd.path, { ...run.ctx, relocate: run.target!.relocate })
      if (!r.ok) return r
      const n = run.cmd.path.length
      return ok(`Dragged over ${quoteLabel(r.el)} along ${n} points`, run, {
        navigating: r.navigating,
        changes: r.changes,
        msg: stepResult('dragged', { label: quoteLabel(r.el), n }),
      })
    },
  }),
  runner({
    name: 'focus',
    async run(run) {
      const ready = await ensureActionable(run.target!.el, { visible: true, enabled: true, allowForce: true }, run.ctx)
      if (!ready.ok) return ready
      const el = ready.el as HTMLElement
      el.focus({ preventScroll: false })
      if (el.ownerDocument.activeElement !== el && !el.contains(el.ownerDocument.activeElement)) {
        return fail('NOT_ACTIONABLE', `${quoteLabel(el)} cannot take the focus.`, { reason: 'wrong-kind' })
      }
      return ok(`Focused ${quoteLabel(el)}`, run, {
        changes: { ...noChanges(), focusChanged: true },
        msg: stepResult('focused', { label: quoteLabel(el) }),
      })
    },
  }),
  runner({
    name: 'press',
    async run(run) {
      const key = run.cmd.key ?? ''
      if (!key) return fail('INVALID', 'press needs a key, such as Enter or ${modifier}+A.')
      let target: Element =
        document.activeElement && document.activeElement !== document.body ? document.activeElement : document.body
      // The focused element of a same-origin frame is where its keys go.
      while (target.localName === 'iframe' && frameDocument(target)?.activeElement)
        target = frameDocument(target)!.activeElement!
      if (run.target) {
        const ready = await ensureActionable(run.target.el, { visible: true, enabled: true, allowForce: true }, run.ctx)
        if (!ready.ok) return ready
        target = ready.el
        ;(target as HTMLElement).focus?.({ preventScroll: true })
      }
      const watch = watchEffects(target.ownerDocument)
      pressKey(target, key)
      await watch.waitForEffect(kKeyWatchMs)
      const { navigating, ...changes } = watch.finish()
      const msg = run.target
        ? stepResult('pressedIn', { key, label: quoteLabel(target) })
        : stepResult('pressed', { key })
      return ok(`Pressed ${key}${run.target ? ` in ${quoteLabel(target)}` : ''}`, run, { navigating, changes, msg })
    },
  }),
  runner({
    name: 'scroll',
    async run(run) {
      const dir = run.cmd.direction
      if (run.target && !dir) {
        const el = run.target.el
        el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' })
        const r = el.getBoundingClientRect()
        const view = viewOf(el)
        const inView = r.bottom > 0 && r.top < view.innerHeight
        if (!inView)
          return fail('NOT_ACTIONABLE', `Could not scroll ${quoteLabel(el)} into view.`, { reason: 'not-visible' })
        return ok(`Scrolled ${quoteLabel(el)} into view`, run, {
          msg: stepResult('scrolledTo', { label: quoteLabel(el) }),
        })
      }
      if (!dir) return fail('INVALID', 'scroll needs a direction (up, down, top, bottom) or an element.')
      const box = run.target ? scrollContainer(run.target.el) : pageScroller(document)
      const { before, after, scroller } = await scrollBox(box, dir, run.cmd.amount)
      const vertical = dir !== 'left' && dir !== 'right'
      const where = box ? ` in ${quoteLabel(box)}` : ''
      const px = Math.round(Math.abs(after - before))
      const atStart = dir === 'up' || dir === 'top'
      const now = whereScrolled(scroller, vertical)
      // "The bottom" that is not the end (the box keeps growing, or refuses): said as it is, never as success.
      if (dir === 'bottom' && !now.atEnd)
        return fail('NOT_ACTIONABLE', `Scrolled${where} but did not reach the end: ${now.text}.`, {
          reason: 'no-effect',
          suggestion: 'The list may keep loading more; scroll again or read what has loaded.',
        })
      // The page's own scroll is said in the UI language; a box's keeps its detail (it names the box).
      const result: StepResult =
        after === before
          ? atStart
            ? 'atTop'
            : 'atEnd'
          : dir === 'top'
            ? 'scrolledTop'
            : dir === 'bottom'
              ? 'scrolledBottom'
              : 'scrolled'
      const said = box
        ? {}
        : { msg: stepResult(result, result === 'scrolled' ? { directionKey: `step.scroll.${dir}`, px } : { px }) }
      return ok(
        after === before
          ? `Already at the ${atStart ? 'top' : 'end'}${where}; nothing to scroll`
          : `Scrolled ${dir}${where} (${px} px); now ${now.text}`,
        run,
        said,
      )
    },
  }),
  runner({
    name: 'submit',
    async run(run) {
      const el = run.target!.el
      const V = viewOf(el)
      const form = el instanceof V.HTMLFormElement ? el : ((el as HTMLInputElement).form ?? el.closest('form'))
      if (!form)
        return fail('NOT_ACTIONABLE', `${quoteLabel(el)} is not in a form.`, {
          reason: 'wrong-kind',
          suggestion: 'Click its submit button instead.',
        })
      const lost = lostBeforeSubmit(form)
      if (lost) return lost
      const watch = watchEffects(el.ownerDocument)
      // requestSubmit runs validation and the submit event, as pressing the submit button does.
      form.requestSubmit()
      await watch.waitForEffect(kSubmitWatchMs)
      const { navigating, ...changes } = watch.finish()
      return ok(`Submitted the form of ${quoteLabel(el)}`, run, {
        navigating,
        changes,
        msg: stepResult('submitted', { label: quoteLabel(el) }),
      })
    },
  }),
  runner({
    name: 'wait',
    async run(run) {
      const { cmd, ctx, timeoutMs } = run
      const selectors = cmd.target?.selectors ?? []
      if (selectors.length) {
        const state = cmd.state ?? 'visible'
        let els: Element[] = []
        const look = () => {
          els = selectors.flatMap((s) => queryAll(s)).filter((e) => !e.closest(`[${kAvaUiAttr}]`))
          return stateHolds(els, state) || null
        }
        try {
          look()
        } catch (e) {
          return fail('INVALID', (e as Error).message)
        }
        const held = await waitFor(look, timeoutMs, ctx.signal)
        return held
          ? ok(`${selectors[0]} is ${state}`, run)
          : fail('TIMEOUT', `${selectors[0]} did not become ${state} within ${timeoutMs / 1000} s.`, {
              suggestion: 'Check the selector, or wait for something the page really shows.',
            })
      }
      if (cmd.text !== undefined) {
        const want = cmd.text
        const held = await waitFor(
          () => missingKeywords([want], visibleText()).length === 0 || null,
          timeoutMs,
          ctx.signal,
        )
        return held
          ? ok(`"${want}" is on the page`, run, { msg: stepResult('appeared', { texts: quoteTexts([want]) }) })
          : fail('TIMEOUT', `"${want}" did not appear within ${timeoutMs / 1000} s.`)
      }
      if (cmd.url !== undefined) {
        const pattern = cmd.url
        const held = await waitFor(() => urlMatches(location.href, pattern) || null, timeoutMs, ctx.signal)
        return held
          ? ok(`The address is ${location.href}`, run, { msg: stepResult('addressIs', { url: location.href }) })
          : fail(
              'TIMEOUT',
              `The address did not match ${pattern} within ${timeoutMs / 1000} s (it is ${location.href}).`,
            )
      }
      const quiet = await quietPage(kQuietWindowMs, timeoutMs, ctx.signal)
      return quiet
        ? ok('The page is quiet', run, { msg: stepResult('quiet') })
        : fail('TIMEOUT', `The page kept changing for ${timeoutMs / 1000} s.`)
    },
  }),
  runner({
    name: 'verify',
    async run(run) {
      const keywords = extractKeywords(run.cmd.assertion ?? '')
      if (!keywords.length) return fail('INVALID', 'verify needs an assertion with the words to find, in quotes.')
      // Holds: returns on the first look. Misses: looks again as the page changes, and gives up
      // once it has settled rather than always spending the whole wait.
      const held = await waitFor(
        () => missingKeywords(keywords, visibleText()).length === 0 || null,
        Math.min(kVerifyWaitMs, run.timeoutMs),
        run.ctx.signal,
        document,
        { settledMs: kSettledMissMs },
      )
      if (held)
        return ok(`Found ${quoteTexts(keywords)} on the page`, run, {
          msg: stepResult('found', { texts: quoteTexts(keywords) }),
        })
      const missing = missingKeywords(keywords, visibleText())
      const modals = openModals(document)
      return fail(
        'VERIFY_FAILED',
        `Not on the page: ${quoteTexts(missing)}${missing.length < keywords.length ? ` (found ${quoteTexts(keywords.filter((k) => !missing.includes(k)))})` : ''}.`,
        {
          suggestion: modals.length
            ? `A dialog "${modals[0].label}" is open; it may hold the answer.`
            : 'The action may not have worked, or the page words it differently.',
        },
      )
    },
  }),
  runner({
    name: 'getText',
    async run(run) {
      const el = run.target!.el
      const V = viewOf(el)
      const text =
        el instanceof V.HTMLInputElement || el instanceof V.HTMLTextAreaElement || el instanceof V.HTMLSelectElement
          ? displayedValue(el)
          : normalize((el as HTMLElement).innerText ?? el.textContent)
      return ok(`Read ${quoteLabel(el)}`, run, { data: text, msg: stepResult('read', { label: quoteLabel(el) }) })
    },
  }),
  runner({
    // Upload: hidden inputs behind a styled button (el-upload, a-upload) included.
    name: 'upload',
    async run(run) {
      const files = run.cmd.files ?? []
      const named = String(run.cmd.value ?? '')
      if (!files.length)
        return fail(
          'INVALID',
          `upload needs the file itself${named ? ` ("${named}")` : ''}: attach it in the panel, or give the pack step a file.`,
        )
      const input = fileInputOf(run.target!.el)
      if (!input)
        return fail(
          'NOT_ACTIONABLE',
          `${quoteLabel(run.target!.el)} is not a file upload, and holds no single file input.`,
          { reason: 'wrong-kind', suggestion: 'Name the upload button or the file field itself.' },
        )
      const watch = watchEffects(input.ownerDocument)
      const r = uploadFiles(input, files)
      await watch.waitForEffect(0)
      const { navigating, ...changes } = watch.finish()
      if (!r.ok) return r
      return ok(`Uploaded ${quoteTexts(r.names)} to ${quoteLabel(input)}`, run, {
        navigating,
        changes: { ...changes, value: r.names.join(', ') },
        msg: stepResult('uploaded', { files: quoteTexts(r.names), label: quoteLabel(input) }),
      })
    },
  }),
  runner({
    name: 'getAttribute',
    async run(run) {
      const el = run.target!.el
      const name = run.cmd.name ?? ''
      return ok(`Read ${name} of ${quoteLabel(el)}`, run, {
        data: el.getAttribute(name),
        msg: stepResult('readAttribute', { name, label: quoteLabel(el) }),
      })
    },
  }),
]

export const actionRegistry: ReadonlyMap<DomActionName, DomActionRunner> = new Map(kActions.map((a) => [a.name, a]))
