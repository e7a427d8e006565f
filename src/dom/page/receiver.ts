/**
 * The one receiver of the page channel (src/core/page/command.ts): every PageCommand a page gets,
 * from the extension's background or from `ava run`, is answered here, one handler per kind, and
 * every answer is a PageOutcome: failures are data, nothing is thrown back across the channel.
 */
import { stepResult, type ExecFailure, type ExecOutcome, type RiskCategory } from '../../core/exec'
import type {
  PageAction,
  PageCommand,
  PageCommandKind,
  PageCommands,
  PageOutcome,
  StepGate,
  UploadFile,
} from '../../core/page/command'
import type { RawEvent, RecordedTarget } from '../../core/flows/record'
import type { StepOutcome } from '../../core/flows/replay'
import { locate, runCommand, type DomCommand, type TargetSpec } from '../executor'
import { candidateId } from '../executor/semantic'
import { labelOf, retarget } from '../executor/dom'
import { fail } from '../../core/exec'
import { kAvaUiAttr } from '../executor/dom'
import { SelectorSyntaxError } from '../../core/page/selectors'
import { queryAll } from '../locators'
import { serialize } from '../../core/page/serialize'
import { createRequestCount, lastListedIds, noteListed, readFrame, readPage, type RequestCount } from './read'
import { hideOverlay, observe, showOverlay } from '../observe'
import { describe as describeTarget, describeInstructionTarget, runFlowStep, startRecording } from '../recorder'
import { riskOf } from '../risk'
import { formCarriesSecret, holdsSecret, markSecretField } from '../secret-fields'
import { secretStepCheck } from '../secret-trust'
import { navigationRefusal } from '../../core/offsite'
import { navigationOf, type StepNavigation } from '../offsite'
import { watchLeaving } from './leaving'
import { placeRefusal } from '../step-place'
import { drawnOf } from '../drawn'
import { drawnLabel, sameDrawn, type DrawnTarget } from '../../core/gate/drawn'
import { planChangedReason } from '../../core/gate/plan'
import { domAction, fieldsOf, type RiskReading } from '../../core/vocabulary'
import { collectRound } from './collect'
import { deepElementFromPoint } from '../locators'
import { hideMarks, showMarks } from '../marks'

export interface ReceiverOptions {
  /** Where the recorder's events go (the extension sends each to the background at once). */
  emitRecorded?: (event: RawEvent) => void
  /** Moves Ava's own button and panel off a box a step is about to act on (RunOptions.makeRoom). */
  makeRoom?: (box: { x: number; y: number; width: number; height: number }) => Promise<void>
  /** The frame's in-flight request count, shared with reads made before this receiver (read.ts). */
  requests?: RequestCount
}

export type Receive = <K extends PageCommandKind>(command: PageCommand<K>) => Promise<PageOutcome<K>>

type Handlers = { [K in PageCommandKind]: (command: PageCommand<K>) => Promise<PageOutcome<K>> | PageOutcome<K> }

/** DOM actions that can submit, delete or pay, and how the risk check reads them: the vocabulary's `gate.risk`. */
const riskReadAs = (action: PageAction['action']): RiskReading | undefined => domAction(action).gate.risk

/**
 * The element drawn at a point of the top document (a point named in a screenshot), as a person's
 * pointer would meet it: through open shadow roots, never Ava's own UI, never into a frame of
 * another site (its element is named by its id; the frame itself is refused).
 */
function elementAtPoint(point: { x: number; y: number }): Element | ExecFailure {
  const x = point.x - scrollX
  const y = point.y - scrollY
  if (point.x < 0 || point.y < 0 || x < 0 || y < 0 || x >= innerWidth || y >= innerHeight)
    return fail('ELEMENT_NOT_FOUND', 'That point is not on the page as it is shown now; take a new screenshot.')
  const hit = deepElementFromPoint(document, x, y)
  if (!hit || hit.closest(`[${kAvaUiAttr}]`))
    return fail('ELEMENT_NOT_FOUND', 'Nothing of the page is drawn at that point.')
  if (hit.localName === 'iframe' || hit.localName === 'frame')
    return fail('ELEMENT_NOT_FOUND', 'That point is inside a frame; name the element by its id from the listing.')
  return hit
}

function focusedElement(): Element | null {
  const el = document.activeElement
  return el && el !== document.body && el !== document.documentElement ? el : null
}

/**
 * The page's half of the gate every step passes, whatever wrote the step: risky
 * steps are refused until the person has said yes to that very element, and nothing is done
 * meanwhile; a step that would load a denied site is refused even then, and another site asks.
 */
type Gate = (el: Element, action: PageAction['action'], nav?: StepNavigation | null) => ExecFailure | null

/** The elements the person was asked about, by handle: a yes binds to one of them. */
interface Binding {
  el: WeakRef<Element>
  drawn: DrawnTarget
}
const kMaxBindings = 32

interface Bindings {
  bind(el: Element, drawn: DrawnTarget): string
  take(handle: string | undefined): { el: Element; drawn: DrawnTarget } | null
}

function createBindings(): Bindings {
  const held = new Map<string, Binding>()
  return {
    bind(el, drawn) {
      // Not crypto.randomUUID: a page served over plain http (an intranet site) is no secure
      // context, and there it is undefined; getRandomValues is everywhere.
      const handle = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
        b.toString(16).padStart(2, '0'),
      ).join('')
      held.set(handle, { el: new WeakRef(el), drawn })
      if (held.size > kMaxBindings) held.delete(held.keys().next().value!)
      return handle
    },
    take(handle) {
      const b = handle ? held.get(handle) : undefined
      const el = b?.el.deref()
      return b && el?.isConnected ? { el, drawn: b.drawn } : null
    },
  }
}

/** A drag's path (page coordinates): a drag is judged by what is drawn along it (src/dom/drawn.ts `drawnAlong`). */
type Path = readonly { x: number; y: number }[] | undefined

/** Scrolled to where a person would see it, so what is drawn over it is what the click meets. */
function drawnInView(el: Element, path?: Path): DrawnTarget {
  const r = el.getBoundingClientRect()
  const view = el.ownerDocument.defaultView
  // A drag's path is in page coordinates, read where the page stands: the knob is not scrolled away from it.
  if (!path && view && (r.bottom < 0 || r.right < 0 || r.top > view.innerHeight || r.left > view.innerWidth))
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' })
  return drawnOf(el, path)
}

function gateOf(
  { confirm: asked, confirmed, sites, runSite }: StepGate,
  bindings: Bindings,
  key?: string,
  files?: UploadFile[],
  path?: Path,
): Gate {
  const confirm: RiskCategory[] = asked ?? []
  // `nav`, when the caller has already worked out where the step would go.
  return (el, action, nav = sites || confirm.includes('cross_site') ? navigationOf(el, action, key) : null) => {
    const ask = (out: ExecFailure, drawn = drawnInView(el, path)): ExecFailure => ({
      ...out,
      drawn,
      handle: bindings.bind(el, drawn),
    })
    // Where the step acts (src/dom/step-place.ts): the element's frame against the lists and the
    // run's site, an attached file going to another site, a program's download. A question binds
    // the yes to this element like every other.
    const placed = placeRefusal(el, action, { sites, confirm, confirmed, runSite, files })
    if (placed) return placed.code === 'NEEDS_CONFIRMATION' ? ask(placed) : placed
    const refused =
      nav && navigationRefusal(nav.url, location.href, sites ?? { allow: [], deny: [] }, confirm, !!nav.form)
    if (refused) return refused.code === 'NEEDS_CONFIRMATION' ? ask(refused) : refused
    // A GET form sends its fields in the address: one a saved secret went into is never sent so, yes or no.
    const sent = nav ?? navigationOf(el, action, key)
    if (sent?.form?.method === 'get' && formCarriesSecret(el))
      return fail(
        'BLOCKED',
        'This form would put a saved secret into the page address (it sends by GET), so Ava does not send it. Send it yourself if you trust the site.',
      )
    const as = riskReadAs(action)
    if (!as || !confirm.length) return null
    // Judged as drawn: generated content, bidi order, SVG text, what covers it, a drag's path.
    const drawn = drawnInView(el, path)
    const risk = riskOf(el, as, confirm, drawn)
    if (risk && confirm.includes(risk.category))
      return ask(fail('NEEDS_CONFIRMATION', risk.reason, { category: risk.category, label: drawnLabel(drawn) }), drawn)
    // A picture Ava cannot read is drawn on or over it: what the person sees may not be its name.
    return drawn.painted && as === 'pointer'
      ? ask(
          {
            ...fail(
              'NEEDS_CONFIRMATION',
              `“${drawnLabel(drawn)}” is drawn with a picture Ava cannot read; it may say something else on screen.`,
              { label: drawnLabel(drawn) },
            ),
            ask: { key: 'risk.ask.painted', params: { target: drawnLabel(drawn) } },
          },
          drawn,
        )
      : null
  }
}

/**
 * The gate for one step, with the person's answer: unconfirmed, `gateOf`; confirmed, only the
 * element the yes was bound to, drawn the same way (a change asks again), the site lists still
 * applied. `recheck` is the second look during the click, after the pointer events.
 */
function stepGateOf(
  gate: StepGate,
  bindings: Bindings,
  key?: string,
  files?: UploadFile[],
  path?: Path,
): { bound: Element | null; unbound: ExecFailure | null; check: Gate; recheck: (el: Element) => string | null } {
  // A fresh judgement asks whatever the person said before (a changed element is a new question).
  const fresh = gateOf({ ...gate, confirmed: false }, bindings, key, files, path)
  const judged = new WeakMap<Element, DrawnTarget>()
  let judgedAction: PageAction['action'] | null = null
  const changed = (el: Element, action: PageAction['action'], now: DrawnTarget): ExecFailure => {
    const again = fresh(el, action)
    if (again && again.code !== 'NEEDS_CONFIRMATION') return again
    const base =
      again ??
      fail('NEEDS_CONFIRMATION', `It changed since you allowed it; it now reads “${drawnLabel(now)}”.`, {
        category: 'destructive',
        label: drawnLabel(now),
      })
    return {
      ...base,
      changed: true,
      label: drawnLabel(again?.drawn ?? now),
      ...(again ? {} : { drawn: now, handle: bindings.bind(el, now) }),
    }
  }
  if (gate.confirmed) {
    const held = bindings.take(gate.bound)
    if (!held)
      return {
        bound: null,
        unbound: fail(
          'NOT_ACTIONABLE',
          'The element you allowed has left the page or was never bound to your answer; Ava did not act on anything in its place.',
          { reason: 'unbound' },
        ),
        check: () => null,
        recheck: () => null,
      }
    const sitesOnly = gateOf({ ...gate, confirm: [], confirmed: true }, bindings, key, files, path)
    return {
      bound: held.el,
      unbound: null,
      check(el, action, nav) {
        if (el !== held.el)
          return fail(
            'NOT_ACTIONABLE',
            'The step reached another element than the one you allowed; Ava did not act on it.',
            { reason: 'unbound' },
          )
        const now = drawnInView(el, path)
        if (!sameDrawn(now, held.drawn)) return changed(el, action, now)
        return nav === undefined ? sitesOnly(el, action) : sitesOnly(el, action, nav)
      },
      recheck(el) {
        if (el !== held.el)
          return 'The element you allowed was replaced at the moment of the click; nothing was clicked.'
        const now = drawnOf(el, path)
        return sameDrawn(now, held.drawn)
          ? null
          : `The element you allowed changed at the moment of the click (it now reads “${drawnLabel(now)}”); nothing was clicked.`
      },
    }
  }
  if (gate.planned) return plannedGateOf(gate, gate.planned, bindings, fresh, key, files, path)
  return {
    bound: null,
    unbound: null,
    check(el, action, nav) {
      const out = nav === undefined ? fresh(el, action) : fresh(el, action, nav)
      if (!out && riskReadAs(action) && gate.confirm?.length) {
        judged.set(el, drawnOf(el))
        judgedAction = action
      }
      return out
    },
    recheck(el) {
      // Only a step the risk check read is read again (a checkbox's click is no risky action).
      if (!judgedAction) return null
      const before = judged.get(el)
      if (before && sameDrawn(before, drawnOf(el))) return null
      // Another element, or the same one drawn otherwise, under the pointer: judged again, and a
      // step that would now need a yes is stopped (asked afresh on the next try).
      const again = fresh(el, judgedAction, null)
      return again
        ? `At the moment of the click the element had become “${drawnLabel(again.drawn ?? drawnOf(el))}”, which needs your yes; nothing was clicked.`
        : null
    },
  }
}

/**
 * A step of a plan the person approved as a whole (core/gate/plan.ts): the element located now,
 * drawn the same way as the one approved for this step, is acted on with no question — the
 * approval was the yes, bound to that element — the site lists still applied; any other element
 * (another record's twin, a look-alike with another link, the same words over another form) is a
 * new question that names both, and its yes binds to the element it shows, as every yes does.
 */
/** A form control's labels (a `check` clicks the first when the input itself is hidden). */
const labelsOf = (el: Element): Element[] => [...((el as HTMLInputElement).labels ?? [])]

/**
 * The elements a plan's drawing showed, by a key only this document knows (`DrawnTarget.element`):
 * a step of the approved plan acts on that element itself while the document lasts, so a
 * look-alike swapped in after the approval (the same words, the same link) is a new question.
 */
const planKeys = (() => {
  const held = new Map<string, WeakRef<Element>>()
  return {
    keep(el: Element): string {
      const key = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join(
        '',
      )
      held.set(key, new WeakRef(el))
      if (held.size > kMaxPlanKeys) held.delete(held.keys().next().value!)
      return key
    },
    /** The element drawn under `key`: undefined for a key of another document, null for one gone since. */
    of(key: string | undefined): Element | null | undefined {
      if (!key || !held.has(key)) return undefined
      const el = held.get(key)!.deref()
      return el?.isConnected ? el : null
    },
  }
})()
const kMaxPlanKeys = 256

function plannedGateOf(
  gate: StepGate,
  planned: DrawnTarget,
  bindings: Bindings,
  fresh: Gate,
  key?: string,
  files?: UploadFile[],
  path?: Path,
): { bound: null; unbound: null; check: Gate; recheck: (el: Element) => string | null } {
  const sitesOnly = gateOf({ ...gate, confirm: [], confirmed: true }, bindings, key, files, path)
  // Every element this step judged drawn as approved (a flow's ladder may judge more than one
  // candidate). The click lands on one of them, or where the executor acts for it: the control it
  // stands for (`retarget`: an icon's button) or a checkbox's label (`check` clicks it when the
  // input is styled away).
  const acted = new Set<Element>()
  return {
    bound: null,
    unbound: null,
    check(el, action, nav) {
      const now = drawnInView(el, path)
      // In the document that drew the plan, the approved element itself (or what the executor acts
      // through for it); elsewhere, an element drawn the same way.
      const approved = planKeys.of(planned.element)
      const same =
        approved === undefined
          ? true
          : approved !== null && (approved === el || retarget(approved) === el || labelsOf(approved).includes(el))
      if (!same || !sameDrawn(now, planned)) {
        // A list's refusal stays a refusal; anything else the person is asked about afresh.
        const again = nav === undefined ? fresh(el, action) : fresh(el, action, nav)
        if (again && again.code !== 'NEEDS_CONFIRMATION') return again
        const reason = planChangedReason(planned, now)
        return {
          ...fail('NEEDS_CONFIRMATION', again ? `${reason} ${again.message}` : reason, {
            ...(again?.category ? { category: again.category } : {}),
            label: drawnLabel(now),
          }),
          ...(again?.offsite ? { offsite: again.offsite } : {}),
          changed: true,
          ask: { key: 'risk.ask.planChanged', params: { target: drawnLabel(now), approved: drawnLabel(planned) } },
          drawn: now,
          handle: bindings.bind(el, now),
        }
      }
      acted.add(el)
      return nav === undefined ? sitesOnly(el, action) : sitesOnly(el, action, nav)
    },
    recheck(el) {
      const judged = [...acted].find((a) => a === el || retarget(a) === el || labelsOf(a).includes(el))
      if (!judged) return 'The element you approved was replaced at the moment of the click; nothing was clicked.'
      // The element judged is what was approved (a label clicked for its checkbox reads otherwise).
      const now = drawnOf(judged, path)
      return sameDrawn(now, planned)
        ? null
        : `The element you approved changed at the moment of the click (it now reads “${drawnLabel(now)}”); nothing was clicked.`
    },
  }
}

export function createReceiver(options: ReceiverOptions = {}): Receive {
  const requests = options.requests ?? createRequestCount()
  let recording: AbortController | null = null

  const bindings = createBindings()
  /** A question asked outside the gate (a secret's form leaving its site) binds the yes to its element too. */
  const bindQuestion = (el: Element, out: ExecFailure | null): ExecFailure | null => {
    if (out?.code !== 'NEEDS_CONFIRMATION' || out.handle) return out
    const drawn = drawnInView(el)
    return { ...out, drawn, handle: bindings.bind(el, drawn) }
  }

  async function act({
    step,
    timeoutMs,
    secretSites,
    describe: describing,
    ...gate
  }: PageCommand<'act'>): Promise<ExecOutcome> {
    const f = fieldsOf(step)
    const judge = stepGateOf(gate, bindings, f.key, f.files, f.path)
    if (judge.unbound) return judge.unbound
    let secretField = false
    // A saved secret goes only into a field whose own document is on a site it is bound to;
    //the field is remembered so its value is never listed again.
    const refuse: Gate = (el, action, nav) => {
      // A secret kept for other sites is refused before anything is asked: no yes could let it through.
      if (secretSites && !secretSites.includes(location.origin))
        return fail(
          'BLOCKED',
          `A saved secret is not typed on ${location.origin}: it is kept for ${secretSites.join(', ') || 'no site yet'}.`,
        )
      // [trust] secret-trust.ts: a secret's form leaving its origin asks so; a secret only into a field a person can see.
      const refused = bindQuestion(
        el,
        secretStepCheck(
          el,
          nav ?? navigationOf(el, action, f.key),
          { typesSecret: !!secretSites, confirmed: !!gate.confirmed },
          nav === undefined ? judge.check(el, action) : judge.check(el, action, nav),
        ),
      )
      if (refused) return refused
      if (secretSites) markSecretField(el)
      secretField = holdsSecret(el)
      return null
    }
    let target: TargetSpec | undefined
    if (!judge.bound && f.target?.point) {
      // A point binds the element drawn there, judged and acted on like one named by its id.
      const at = elementAtPoint(f.target.point)
      if (!(at instanceof Element)) return at
      target = { element: at }
    } else if (judge.bound) {
      // The yes binds to the element the question showed: it is acted on, or nothing is (never located again).
      target = { element: judge.bound }
    } else if (f.target?.focused) {
      const el = focusedElement()
      // A key goes to the page when nothing has the focus; text needs somewhere to go.
      if (!el && !('key' in step))
        return fail('ELEMENT_NOT_FOUND', 'Nothing has the focus to type into; give the step a selector.')
      target = el ? { element: el } : undefined
      if (el) {
        const refused = refuse(el, step.action)
        if (refused) return refused
      }
    } else target = f.target
    let newTab: string | undefined
    let captured: RecordedTarget | undefined
    const out = await runCommand({ ...step, target } as DomCommand, {
      timeoutMs,
      recheck: judge.recheck,
      makeRoom: options.makeRoom,
      beforeAct: (el, action) => {
        const nav = navigationOf(el, action, f.key)
        const refused = refuse(el, action, nav)
        if (refused) return refused
        // Before the action changes the page: what a flow made from this run must find.
        if (describing) captured = describeTarget(el) ?? undefined
        // A link that opens a new tab or window: a script's click would meet the popup blocker.
        if (!domAction(action).opensTab || !nav?.newTab || nav.form || !/^https?:/i.test(nav.url)) return null
        newTab = nav.url
        return fail('INVALID', 'opens a new tab') // not clicked: the background opens it
      },
    })
    if (newTab)
      return {
        ok: true,
        detail: `Opened ${newTab} in a new tab`,
        msg: stepResult('openedTab', { url: newTab }),
        openTab: newTab,
        ...(captured ? { target: captured } : {}),
      }
    const described = out.ok && captured ? { ...out, target: captured } : out
    // What went into such a field is recorded redacted wherever the step is kept (core/agent/step.ts).
    return described.ok && secretField ? { ...described, sensitive: true } : described
  }

  const handlers: Handlers = {
    act: (c) => act(c),
    read: async (c) => ({ ok: true, info: await readPage(c, requests) }),
    'frame.read': (c) => readFrame(c),
    async marks({ on, prefix, blackout, hide, since }) {
      if (!on) {
        hideMarks()
        return {
          ok: true,
          marks: [],
          blacked: 0,
          poor: [],
          view: { viewWidth: innerWidth, viewHeight: innerHeight, scrollX, scrollY, dpr: devicePixelRatio },
        }
      }
      // A page never read in this document (a reload since) is read now, as the listing would be.
      if (!lastListedIds().length && !prefix) noteListed(serialize(observe(), {}).ids)
      return {
        ok: true,
        ...(await showMarks(blackout ? null : lastListedIds(), prefix ? `${prefix}_` : '', hide ?? [], since)),
      }
    },
    count({ selector }) {
      try {
        return { ok: true, count: queryAll(selector).filter((el) => !el.closest(`[${kAvaUiAttr}]`)).length }
      } catch (e) {
        if (e instanceof SelectorSyntaxError) return fail('INVALID', e.message)
        throw e
      }
    },
    // Through the ladder like every other locate: same parser, text fallback and
    // ambiguity rule; a look, not a wait.
    async find({ query }) {
      const found = await locate({ semantic: query }, { timeoutMs: 0, allowText: true })
      if (found.ok === false) return found.code === 'AMBIGUOUS' ? found : { ok: true, found: null }
      const candidates = found.candidates ?? []
      const first = candidates.find((c) => c.id === candidateId(found.el)) ?? {
        id: candidateId(found.el),
        label: labelOf(found.el),
        score: 1,
      }
      return { ok: true, found: { ...first, candidates } }
    },
    url: () => ({ ok: true, url: location.href }),
    'flow.step': async ({ step, timeoutMs, trusted, files, secretSites, ...gate }) => {
      const judge = stepGateOf(
        gate,
        bindings,
        step.params.key === undefined ? undefined : String(step.params.key),
        files,
      )
      if (judge.unbound)
        return {
          ok: true,
          outcome: {
            ok: false,
            code: 'NOT_ACTIONABLE',
            message: judge.unbound.message,
            candidates: [],
            resolveMs: 0,
            acted: false,
          },
        }
      // A replay that moved to another site types no secret there, as `act` refuses.
      let newTab: string | undefined
      const beforeAct: Gate = (el, action) => {
        if (secretSites && !secretSites.includes(location.origin))
          return fail(
            'BLOCKED',
            `A saved secret is not typed on ${location.origin}: it is kept for ${secretSites.join(', ') || 'no site yet'}.`,
          )
        const nav = domAction(action).opensTab ? navigationOf(el, action) : null
        // [trust] secret-trust.ts, as for `act`.
        const refused = bindQuestion(
          el,
          secretStepCheck(
            el,
            nav ?? navigationOf(el, action),
            { typesSecret: !!secretSites, confirmed: !!gate.confirmed },
            nav ? judge.check(el, action, nav) : judge.check(el, action),
          ),
        )
        if (!refused && secretSites) markSecretField(el)
        // A link to a new tab, as for `act`: a script's click would meet the popup blocker, so the
        // carrier opens it; the flow stays in this tab until a `tab` step moves it there.
        if (!refused && nav?.newTab && !nav.form && /^https?:/i.test(nav.url)) {
          newTab = nav.url
          return fail('INVALID', 'opens a new tab')
        }
        return refused
      }
      const leaving = watchLeaving()
      try {
        const ran = await runFlowStep(step, {
          timeoutMs,
          trusted,
          files,
          beforeAct,
          recheck: judge.recheck,
          makeRoom: options.makeRoom,
          ...(judge.bound ? { element: judge.bound } : {}),
        })
        if (newTab) {
          const outcome: StepOutcome = {
            ok: true,
            level: null,
            alternative: 0,
            resolveMs: ran.resolveMs,
            actMs: 0,
            detail: `Opened ${newTab} in a new tab`,
          }
          return { ok: true, outcome, openTab: newTab }
        }
        const outcome = ran
        // Lifted for the sender, which then waits for the next document before the next step (as for `act`).
        const navigating = outcome.ok && (outcome.navigating || (await leaving.settle()))
        return { ok: true, outcome, ...(navigating ? { navigating: true } : {}) }
      } finally {
        leaving.stop()
      }
    },
    // Reading only: each plan step's element located as its step would be, drawn, nothing done.
    async draw({ targets, timeoutMs }) {
      const drawn: (DrawnTarget | null)[] = []
      for (const target of targets) {
        const found = await locate(target, { timeoutMs }).catch(() => null)
        drawn.push(found && 'el' in found ? { ...drawnInView(found.el), element: planKeys.keep(found.el) } : null)
      }
      return { ok: true, drawn }
    },
    'flow.describe': async ({ targets }) => {
      const out = []
      for (const t of targets) out.push(await describeInstructionTarget(t).catch(() => null))
      return { ok: true, targets: out }
    },
    record({ on }) {
      recording?.abort()
      recording = null
      if (on && options.emitRecorded) {
        recording = new AbortController()
        startRecording({ emit: options.emitRecorded, signal: recording.signal })
      }
      return { ok: true }
    },
    overlay({ on, ids }) {
      if (!on) {
        hideOverlay()
        return { ok: true, on: false, elements: 0 }
      }
      const snapshot = observe()
      // A claim's sources: only the elements it names (ids are stable handles across scans).
      const shown = ids ? { ...snapshot, elements: snapshot.elements.filter((e) => ids.includes(e.id)) } : snapshot
      showOverlay(shown)
      return { ok: true, on: true, elements: shown.elements.length }
    },
    requests({ pending }) {
      requests.set(pending)
      return { ok: true }
    },
    // Reading only: no gate (nothing is clicked or typed), and Ava's own UI is never an item.
    async collect({ session, first, target, timeoutMs }) {
      let named: Element | null = null
      if (target && first) {
        const found = await locate(target, { timeoutMs })
        if (found.ok === false) return found
        named = found.el
      }
      return {
        ok: true,
        round: await collectRound(
          session,
          first,
          named,
          (el) => !!el.closest(`[${kAvaUiAttr}]`) || el.localName === 'ava-root',
        ),
      }
    },
  }

  return async (command) => {
    const handler = handlers[command.kind] as
      ((c: typeof command) => Promise<PageOutcome<typeof command.kind>> | PageOutcome<typeof command.kind>) | undefined
    if (!handler)
      return fail('INVALID', `Unknown page command "${String(command.kind)}".`) as PageOutcome<typeof command.kind>
    try {
      return (await handler(command)) as PageOutcome<typeof command.kind>
    } catch (e) {
      // The receiver reports; it never throws across the channel (errors are data, STYLE.md).
      return fail('NOT_ACTIONABLE', `${command.kind} failed: ${(e as Error)?.message ?? String(e)}`) as PageOutcome<
        typeof command.kind
      >
    }
  }
}

/** The page-side answers of every command kind, typed for callers that keep one receiver. */
export type { PageCommands }
