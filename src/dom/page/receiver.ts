/**
 * The one receiver of the page channel (src/core/page/command.ts): every PageCommand a page gets,
 * from the extension's background or from `ava run`, is answered here, one handler per kind, and
 * every answer is a PageOutcome: failures are data, nothing is thrown back across the channel.
 */
import { stepResult, type ExecFailure, type ExecOutcome, type RiskCategory } from '../../core/exec'
import type { PageAction, PageCommand, PageCommandKind, PageCommands, PageInfo, PageOutcome, StepGate } from '../../core/page/command'
import type { RawEvent, RecordedTarget } from '../../core/flows/record'
import type { StepOutcome } from '../../core/flows/replay'
import { locate, runCommand, type TargetSpec } from '../executor'
import { candidateId } from '../executor/semantic'
import { labelOf } from '../executor/dom'
import { fail } from '../executor/ladder'
import { kAvaUiAttr } from '../executor/dom'
import { SelectorSyntaxError } from '../../core/page/selectors'
import { queryAll } from '../locators'
import { listedIntents, serialize } from '../../core/page/serialize'
import { hideOverlay, observe, showOverlay, waitForReady, type PendingRequestSource } from '../observe'
import { describe as describeTarget, describeInstructionTarget, runFlowStep, startRecording } from '../recorder'
import { riskOf } from '../risk'
import { formCarriesSecret, holdsSecret, markSecretField } from '../secret-fields'
import { secretStepCheck } from '../secret-trust'
import { navigationRefusal } from '../../core/offsite'
import { navigationOf, type StepNavigation } from '../offsite'
import { watchLeaving } from './leaving'

export interface ReceiverOptions {
  /** Where the recorder's events go (the extension sends each to the background at once). */
  emitRecorded?: (event: RawEvent) => void
}

export type Receive = <K extends PageCommandKind>(command: PageCommand<K>) => Promise<PageOutcome<K>>

type Handlers = { [K in PageCommandKind]: (command: PageCommand<K>) => Promise<PageOutcome<K>> | PageOutcome<K> }

/** DOM actions that can submit, delete or pay, and how the risk check reads them (issue 6). */
const kRiskyActions: Partial<Record<PageAction['action'], 'click' | 'press'>> = { click: 'click', dblclick: 'click', press: 'press', submit: 'click' }

/** The in-flight request count of this tab, as the background last told it (no polling). */
function createRequestCount(): PendingRequestSource & { set(n: number): void } {
  let count = 0
  const listeners = new Set<() => void>()
  return {
    pending: () => count,
    subscribe(onChange) {
      listeners.add(onChange)
      return () => listeners.delete(onChange)
    },
    set(n) {
      if (n === count) return
      count = n
      for (const l of listeners) l()
    },
  }
}

function focusedElement(): Element | null {
  const el = document.activeElement
  return el && el !== document.body && el !== document.documentElement ? el : null
}

/**
 * The page's half of the gate every step passes, whatever wrote the step (issues 6, 15): risky
 * steps are refused until the person has said yes, and nothing is done meanwhile; a step that
 * would load a denied site is refused even then, and another site asks.
 */
type Gate = (el: Element, action: PageAction['action'], nav?: StepNavigation | null) => ExecFailure | null

function gateOf({ confirm: asked, confirmed, sites }: StepGate, key?: string): Gate {
  const confirm: RiskCategory[] = confirmed ? [] : (asked ?? [])
  // `nav`, when the caller has already worked out where the step would go.
  return (el, action, nav = sites || confirm.includes('cross_site') ? navigationOf(el, action, key) : null) => {
    const refused = nav && navigationRefusal(nav.url, location.href, sites ?? { allow: [], deny: [] }, confirm, !!nav.form)
    if (refused) return refused
    // A GET form sends its fields in the address: one a saved secret went into is never sent so, yes or no.
    const sent = nav ?? navigationOf(el, action, key)
    if (sent?.form?.method === 'get' && formCarriesSecret(el)) return fail('BLOCKED', 'This form would put a saved secret into the page address (it sends by GET), so Ava does not send it. Send it yourself if you trust the site.')
    const as = kRiskyActions[action]
    const risk = as && confirm.length ? riskOf(el, as, confirm) : null
    return risk && confirm.includes(risk.category) ? fail('NEEDS_CONFIRMATION', risk.reason, { category: risk.category, label: labelOf(el) }) : null
  }
}

export function createReceiver(options: ReceiverOptions = {}): Receive {
  const requests = createRequestCount()
  let recording: AbortController | null = null

  async function act({ step, timeoutMs, secretSites, describe: describing, ...gate }: PageCommand<'act'>): Promise<ExecOutcome> {
    const risky = gateOf(gate, step.key)
    let secretField = false
    // A saved secret goes only into a field whose own document is on a site it is bound to
    // (issue 16 §2); the field is remembered so its value is never listed again.
    const refuse: Gate = (el, action, nav) => {
      // [trust] secret-trust.ts: a secret's form leaving its origin asks so; a secret only into a field a person can see.
      const refused = secretStepCheck(el, nav ?? navigationOf(el, action, step.key), { typesSecret: !!secretSites, confirmed: !!gate.confirmed }, nav === undefined ? risky(el, action) : risky(el, action, nav))
      if (refused) return refused
      if (secretSites) {
        if (!secretSites.includes(location.origin)) return fail('BLOCKED', `A saved secret is not typed on ${location.origin}: it is kept for ${secretSites.join(', ') || 'no site yet'}.`)
        markSecretField(el)
      }
      secretField = holdsSecret(el)
      return null
    }
    let target: TargetSpec | undefined
    if (step.target?.focused) {
      const el = focusedElement()
      // A key goes to the page when nothing has the focus; text needs somewhere to go.
      if (!el && step.action !== 'press') return fail('ELEMENT_NOT_FOUND', 'Nothing has the focus to type into; give the step a selector.')
      target = el ? { element: el } : undefined
      if (el) {
        const refused = refuse(el, step.action)
        if (refused) return refused
      }
    } else target = step.target
    let newTab: string | undefined
    let captured: RecordedTarget | undefined
    const out = await runCommand({ ...step, target }, {
      timeoutMs,
      beforeAct: (el, action) => {
        const nav = navigationOf(el, action, step.key)
        const refused = refuse(el, action, nav)
        if (refused) return refused
        // Before the action changes the page: what a flow made from this run must find (issue 18 §3).
        if (describing) captured = describeTarget(el) ?? undefined
        // A link that opens a new tab or window: a script's click would meet the popup blocker.
        if (action !== 'click' || !nav?.newTab || nav.form || !/^https?:/i.test(nav.url)) return null
        newTab = nav.url
        return fail('INVALID', 'opens a new tab') // not clicked: the background opens it
      },
    })
    if (newTab) return { ok: true, detail: `Opened ${newTab} in a new tab`, msg: stepResult('openedTab', { url: newTab }), openTab: newTab, ...(captured ? { target: captured } : {}) }
    const described = out.ok && captured ? { ...out, target: captured } : out
    // What went into such a field is recorded redacted wherever the step is kept (run.ts).
    return described.ok && secretField ? { ...described, sensitive: true } : described
  }

  async function read({ request, settle, pending }: PageCommand<'read'>): Promise<PageInfo> {
    let note = ''
    if (settle) {
      if (pending !== undefined) requests.set(pending)
      const ready = await waitForReady({ requests })
      if (!ready.ready) note += `(The page was still changing after ${Math.round(ready.waitedMs / 1000)} s; this is how it looked then.)\n`
      if (ready.errors.length) note += `(The page reported errors: ${ready.errors.slice(0, 3).join(' | ')})\n`
    }
    const snapshot = observe({ request })
    const { text, ids } = serialize(snapshot, { request })
    const info: PageInfo = { url: location.href, title: document.title, listing: note + text, intents: listedIntents(snapshot.intents, ids) }
    // Cross-origin frames are read by our content script inside each of them; the background merges
    // their snapshots into this one and lists the whole again (seed 002 §6, background/frames.ts).
    if (snapshot.frames.some((f) => f.status === 'cross_origin_restricted')) Object.assign(info, { snapshot, note })
    return info
  }

  const handlers: Handlers = {
    act: (c) => act(c),
    read: async (c) => ({ ok: true, info: await read(c) }),
    'frame.read': ({ request }) => ({ ok: true, snapshot: observe({ request }) }),
    count({ selector }) {
      try {
        return { ok: true, count: queryAll(selector).filter((el) => !el.closest(`[${kAvaUiAttr}]`)).length }
      } catch (e) {
        if (e instanceof SelectorSyntaxError) return fail('INVALID', e.message)
        throw e
      }
    },
    // Through the ladder like every other locate (issue 20): same parser, text fallback and
    // ambiguity rule; a look, not a wait.
    async find({ query }) {
      const found = await locate({ semantic: query }, { timeoutMs: 0, allowText: true })
      if (found.ok === false) return found.code === 'AMBIGUOUS' ? found : { ok: true, found: null }
      const candidates = found.candidates ?? []
      const first = candidates.find((c) => c.id === candidateId(found.el)) ?? { id: candidateId(found.el), label: labelOf(found.el), score: 1 }
      return { ok: true, found: { ...first, candidates } }
    },
    url: () => ({ ok: true, url: location.href }),
    'flow.step': async ({ step, timeoutMs, trusted, files, secretSites, ...gate }) => {
      const risky = gateOf(gate, step.params.key === undefined ? undefined : String(step.params.key))
      // A replay that moved to another site types no secret there (issue 16 §2), as `act` refuses.
      let newTab: string | undefined
      const beforeAct: Gate = (el, action) => {
        if (secretSites && !secretSites.includes(location.origin)) return fail('BLOCKED', `A saved secret is not typed on ${location.origin}: it is kept for ${secretSites.join(', ') || 'no site yet'}.`)
        const nav = action === 'click' ? navigationOf(el, action) : null
        // [trust] secret-trust.ts, as for `act`.
        const refused = secretStepCheck(el, nav ?? navigationOf(el, action), { typesSecret: !!secretSites, confirmed: !!gate.confirmed }, nav ? risky(el, action, nav) : risky(el, action))
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
        const ran = await runFlowStep(step, { timeoutMs, trusted, files, beforeAct })
        if (newTab) {
          const outcome: StepOutcome = { ok: true, level: null, alternative: 0, resolveMs: ran.resolveMs, actMs: 0, detail: `Opened ${newTab} in a new tab` }
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
    overlay({ on }) {
      if (!on) {
        hideOverlay()
        return { ok: true, on: false, elements: 0 }
      }
      const snapshot = observe()
      showOverlay(snapshot)
      return { ok: true, on: true, elements: snapshot.elements.length }
    },
    requests({ pending }) {
      requests.set(pending)
      return { ok: true }
    },
  }

  return async (command) => {
    const handler = handlers[command.kind] as ((c: typeof command) => Promise<PageOutcome<typeof command.kind>> | PageOutcome<typeof command.kind>) | undefined
    if (!handler) return fail('INVALID', `Unknown page command "${String(command.kind)}".`) as PageOutcome<typeof command.kind>
    try {
      return (await handler(command)) as PageOutcome<typeof command.kind>
    } catch (e) {
      // The receiver reports; it never throws across the channel (errors are data, STYLE.md).
      return fail('NOT_ACTIONABLE', `${command.kind} failed: ${(e as Error)?.message ?? String(e)}`) as PageOutcome<typeof command.kind>
    }
  }
}

/** The page-side answers of every command kind, typed for callers that keep one receiver. */
export type { PageCommands }
