/**
 * A remembered plan, reviewed and replayed with no model call, and the repair of one failed step:
 * the candidates go to the model, and its one instruction runs in the step's place.
 */
import { instructionEnds } from '../vocabulary'
import type { StepView } from '../chat'
import { AvaError } from '../errors'
import { isRepairable } from '../failure'
import type { Candidate } from '../exec'
import type { Instruction } from '../instruction/schema'
import { readInstructionText } from '../instruction/read'
import { createInstructionSplitter } from '../instruction/stream'
import { buildRepairPrompt, buildSystemPrompt, type PageContext, type StepReport } from './prompt'
import { approvePlan, planQuestion } from '../gate/plan'
import { planAsk, previewCachedPlan } from './plan-approval'
import { needsReview } from './provenance'
import { msg, riskAsk } from './outcome'
import { redactInstruction, redactText } from './secrets'
import { reviewQuestion } from './provenance'
import type { CacheEntry } from '../instruction/cache-entry'
import { type Run, setStatus, show, type Failure, unechoed, addUsage } from './context'
import { confirm } from './ask'
import { runOneStep } from './step'
import { finish } from './finish'

/** AI fallback for one step: the candidates go to the model, its one instruction runs. */
export async function repairStep(
  run: Run,
  failed: NonNullable<Failure['step']>,
  page: PageContext,
): Promise<{ ok: true; report: StepReport; instruction: Instruction } | { ok: false }> {
  const { state, ports, signal } = run
  const candidates: Candidate[] = failed.outcome.candidates ?? []
  const fresh = await unechoed(
    run,
    await ports.page.read(state.tabId, failed.instruction.description ?? state.request, { signal }).catch(() => page),
  )
  // [trust] The failed step as recorded: a vault value it wrote out, in any shape, stays out (redact.ts).
  const hidden = Object.values(await ports.secrets.vault().catch(() => ({})))
  const prompt = buildRepairPrompt(
    {
      instruction: redactInstruction(failed.instruction, { sensitive: false, secrets: hidden }),
      error: redactText(failed.outcome.message, hidden),
      candidates,
    },
    fresh,
  )
  let text = ''
  const t0 = ports.clock.now()
  try {
    const res = await ports.llm.stream({
      system: buildSystemPrompt(),
      messages: [{ role: 'user', content: prompt }],
      signal,
      onText: (d) => void (text += d),
    })
    addUsage(state, res.usage)
    run.recorder.model({
      at: t0,
      ms: ports.clock.now() - t0,
      system: buildSystemPrompt(),
      messages: [{ role: 'user', content: prompt }],
      output: text,
      tokens: res.usage,
      aside: true,
    })
  } catch {
    if (signal.aborted) throw signal.reason
    return { ok: false }
  }
  const first = extractFirstInstruction(text)
  if (!first) return { ok: false }
  const view: StepView = {
    index: failed.index,
    instruction: { ...first, description: first.description ?? failed.instruction.description },
    status: 'pending',
  }
  let recorded = view.instruction
  const out = await runOneStep(run, view, (r) => (recorded = r))
  if (!out.ok) return { ok: false }
  await show(run, {
    ...view,
    instruction: recorded,
    status: 'ok',
    detail: `${out.detail} (repaired)`,
    msg: msg('step.repaired'),
    rung: 'ai',
  })
  return {
    ok: true,
    instruction: view.instruction,
    report: {
      index: view.index,
      action: first.action_type,
      description: first.description,
      ok: true,
      detail: out.detail,
    },
  }
}

function extractFirstInstruction(text: string): Instruction | null {
  let found: Instruction | null = null
  const s = createInstructionSplitter({
    prose: () => undefined,
    element: (raw, index) => {
      if (found) return
      const r = readInstructionText(raw, index)
      if (r.success && !instructionEnds(r.data.action_type)) found = r.data
    },
  })
  s.push(text)
  s.end()
  return found
}

/**
 * The person's one review of a remembered plan that page content could have shaped: its risky
 * steps listed in the chat; a yes marks it reviewed and replays it, a no plans afresh.
 */
export async function reviewPlan(run: Run, hit: CacheEntry): Promise<boolean> {
  const p = hit.provenance!
  const view: StepView = {
    index: 0,
    instruction: { step_id: 1, action_type: 'verify', params: { assertion: '' }, description: hit.request },
    status: 'pending',
  }
  const { draw } = run.ports.page
  if (draw) {
    // [trust] The review is the plan's one approval: every element as drawn now, each step bound to its own.
    const steps = await previewCachedPlan((t) => draw(run.state.tabId, t, run.signal), hit.steps)
    if (!steps.length && !needsReview(hit)) return true // nothing to list, nothing that asks
    const yes = (await confirm(run, view, planQuestion(hit.request, steps), planAsk(hit.request, steps))) === true
    if (yes) run.plan = approvePlan(steps)
    if (yes) await run.ports.cache.reviewed?.(hit.key)
    return yes
  }
  const steps = p.risky.map((r) => `${r.index + 1}. ${r.text}`).join('; ')
  const yes =
    (await confirm(run, view, reviewQuestion(hit.request, p), riskAsk('cachedPlan', { step: hit.request, steps }))) ===
    true
  if (yes) await run.ports.cache.reviewed?.(hit.key)
  return yes
}

/** A cached plan, replayed with no LLM call; a step that fails is repaired for that step only. */
export async function replay(run: Run, entry: { key: string; steps: Instruction[] }): Promise<void> {
  const { state, ports, signal } = run
  state.replay = true
  await setStatus(run, 'running')
  const repaired: { index: number; instruction: Instruction }[] = []
  for (const [index, ins] of entry.steps.entries()) {
    if (signal.aborted) throw signal.reason
    const view: StepView = { index, instruction: ins, status: 'pending' }
    void show(run, view)
    const out = await runOneStep(run, view)
    if (out.ok) continue
    // A repaired step was never shown: from here on each step is judged as any other.
    run.plan = undefined
    const page = await ports.page.read(state.tabId, state.request, { signal })
    const fixed = isRepairable(out.code)
      ? await repairStep(run, { index, instruction: ins, outcome: out }, page)
      : { ok: false as const }
    if (!fixed.ok) {
      await ports.cache.remove(entry.key) // the page has moved on; next time plan afresh
      return finish(
        run,
        'failed',
        new AvaError(
          'STEP_FAILED',
          `Replaying the saved steps failed at step ${index + 1}: ${out.message} The saved steps were dropped; ask again to plan afresh.`,
          { msg: msg('outcome.replayFailed', { n: index + 1 }), step: true },
        ),
      )
    }
    repaired.push({ index, instruction: redactInstruction(fixed.instruction, { sensitive: false }) })
  }
  await Promise.all([ports.cache.recordHit(entry.key, repaired), finish(run, 'done')])
}
