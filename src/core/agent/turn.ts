/**
 * One model turn: the reply streamed, each instruction run as soon as it is complete
 * (`planAndAct`), the model's reasoning shown as it comes, and the screenshot that goes with the
 * turn.
 */
import { agentWork, instructionEnds } from '../vocabulary'
import { createAsyncQueue, type AsyncQueue } from '../async-queue'
import { kMaxAnswerChars, type StepView } from '../chat'
import { AvaError } from '../errors'
import type { ExecOutcome } from '../exec'
import type { Instruction } from '../instruction/schema'
import { readInstructionText } from '../instruction/read'
import { createInstructionSplitter } from '../instruction/stream'
import { thinksFirst } from '../providers'
import { wantsScreenshot, type Screenshot, type ShotSkipped } from './vision'
import { activeLlm } from '../settings'
import { isLooping } from './guards'
import { buildSystemPrompt, replyProse, type AnswerReport, type StepReport } from './prompt'
import { avaError, msg, stepFailureMsg } from './outcome'
import { redactInstruction, redactText } from './secrets'
import type { PlannerMessage } from './state'
import type { TabOutcome } from './tabs'
import { type Run, show, say, type Failure, usesLimit, compact, sees, hiddenOf, addUsage, toAvaError } from './context'
import { askPerson } from './ask'
import { takeOver } from './handover'
import { inventsCode } from '../gate/challenge'
import { runOneStep } from './step'

/** What one streamed reply did. */
export interface Batch {
  /** The reply as the planner may remember it (prose, then the instructions redacted). */
  reply: string
  steps: number
  results: StepReport[]
  answer?: string
  /** The claims the `done` answer made, each with its sources. */
  claims?: Instruction['params']['claims']
  /** …and, for a run asked for a shape, each field's part of a collected item. */
  fields?: Instruction['params']['fields']
  /** The person's answer to an `ask` in this reply: the rest of the reply waits for the next one. */
  asked?: AnswerReport
  failure?: Failure
  /** The provider cut the reply at its token limit: the complete steps ran, this many of them. */
  cutAtLimit?: { complete: number }
  /** What the model is told when it is asked again for an invalid reply (the reader's own words). */
  modelNote?: string
}

/**
 * The marked screenshot for this planning request, when the policy wants one (vision.ts
 * `wantsScreenshot`); else a note for the model when it asked and none could be taken.
 */
export async function screenshotFor(run: Run, first: boolean): Promise<Screenshot | { note?: string }> {
  const { ports, state, signal } = run
  if (!sees(run) || !wantsScreenshot({ first, asked: !!state.shotAsked, poor: !!state.shotPoor })) return {}
  const asked = !!state.shotAsked
  state.shotAsked = false
  // [privacy] The secrets typed so far are blacked out wherever the page draws them again (docs/security.md, "Pictures").
  const typed = { values: run.typed, ...(run.typedAt !== undefined ? { at: run.typedAt } : {}) }
  const shot = await ports.page.screenshot!(state.tabId, signal, typed).catch((e): ShotSkipped => ({
    skipped: 'failed',
    detail: String((e as Error)?.message ?? e),
  }))
  if ('skipped' in shot) {
    state.shotPoor = false
    const why =
      shot.skipped === 'off'
        ? 'screenshots are off for this site'
        : shot.skipped === 'hidden'
          ? 'the tab is not the one shown in its window'
          : shot.skipped === 'secret'
            ? `a secret typed on this page could be drawn where Ava cannot black it out (${shot.detail ?? 'unknown'}), so the picture was not sent`
            : 'the capture failed'
    return asked || shot.skipped === 'secret'
      ? { note: `(No screenshot could be taken: ${why}. Work from the listing.)` }
      : {}
  }
  state.shot = shot.frame
  state.shotPoor = shot.poor.length > 0
  state.shots = (state.shots ?? 0) + 1
  // The person sees each picture that left the browser (issue: privacy), said in their language.
  await ports.chat.add({
    role: 'system',
    kind: 'info',
    text: 'Sent the model a screenshot of the page, secret fields blacked out.',
    msg: msg('outcome.screenshotSent'),
  })
  return shot
}

/** One piece of the reply as the reader queued it: an instruction read whole, or why one could not be read. */
interface Queued {
  index: number
  instruction?: Instruction
  error?: string
  raw?: string
  askless?: boolean
}

/** One reply as it is read and run: what it did so far, and what the reader and the steps share. */
interface Reply {
  run: Run
  batch: Batch
  /** Cut when the rest of the reply is not wanted: a step failed, an invalid or unrunnable instruction came. */
  stream: AbortController
  /** The run's index of the reply's first step. */
  base: number
  /**
   * What the model said, as it may be remembered: prose, then each instruction as recorded
   * (values typed into password fields replaced), never the raw text.
   */
  prose: string
  said: Instruction[]
  /** Instructions the reader has seen so far. */
  elements: number
  /**
   * Instructions queued and begun in this reply: once the queue holds more than the steps left,
   * the rest of the reply can never run, and is neither parsed nor waited for.
   */
  queued: number
  started: number
  /** Everything the model sent, for the message that says a reply held nothing Ava could use. */
  rawReply: string
}

type Thinking = ReturnType<typeof thinkingWriter>

/** One LLM reply, streamed; each instruction runs as soon as it is complete, the rest wait. */
export async function planAndAct(run: Run, messages: PlannerMessage[]): Promise<Batch> {
  const { signal } = run
  const queue = createAsyncQueue<Queued>()
  const reply: Reply = {
    run,
    batch: { reply: '', steps: 0, results: [] },
    stream: new AbortController(),
    base: run.steps.length,
    prose: '',
    said: [],
    elements: 0,
    queued: 0,
    started: 0,
    rawReply: '',
  }
  run.actedInReply = false
  const thinking = thinkingWriter(run)
  const consumer = (async () => {
    for await (const item of queue) if (!(await actOn(reply, item))) return
  })()
  await streamReply(reply, messages, queue, thinking)
  queue.close()
  await Promise.all([consumer, thinking.flush()])
  // The words around the steps may quote the page the model was reading: they come back framed, as
  // an earlier answer does; the steps come back as the instructions Ava read.
  const { batch, prose, said } = reply
  batch.reply = [prose.trim() ? replyProse(prose.trim()) : '', said.length ? JSON.stringify(said.filter(Boolean)) : '']
    .filter(Boolean)
    .join('\n')
  if (signal.aborted) throw signal.reason
  return batch
}

/** The next queued piece of the reply, in its turn; false when the run was stopped and the rest is not looked at. */
async function actOn(reply: Reply, item: Queued): Promise<boolean> {
  const { run, batch } = reply
  const view: StepView = {
    index: reply.base + item.index,
    instruction: item.instruction ?? placeholder(item.index),
    status: 'pending',
  }
  if (run.signal.aborted) return false
  if (batch.failure || batch.answer !== undefined || batch.asked) {
    await show(run, { ...view, status: 'skipped' })
    return true
  }
  if (item.error) await stopAtInvalid(reply, view, item)
  else await runInstruction(reply, view, item.index, item.instruction!)
  return true
}

/** An instruction that could not be read: nothing after it runs. */
async function stopAtInvalid(reply: Reply, view: StepView, item: Queued): Promise<void> {
  // The model's own words and zod's issues are for the details toggle, never the message itself,
  // and are said once: on the error message, not again on the step's row.
  const raw = item.raw?.trim() ?? ''
  const details = raw && !item.error!.includes(raw) ? `${item.error}\n\n${raw}` : item.error!
  // An ask with no question is said as such: the person is the one it was for.
  const askless = !!item.askless
  await show(reply.run, { ...view, status: 'failed', title: msg(askless ? 'step.askNoQuestion' : 'step.invalid') })
  const n = view.index + 1
  reply.batch.failure = {
    error: new AvaError(
      'SCHEMA',
      askless
        ? `Step ${n} was to ask you something, but it had no question (ask needs params.question), so Ava stopped before it.`
        : `Step ${n} was not a valid instruction, so Ava stopped before it.`,
      { msg: msg(askless ? 'outcome.askNoQuestion' : 'outcome.invalidStep', { n }), details },
    ),
  }
  reply.stream.abort()
}

/** One instruction of the reply: the page handed over first if it must be, else the answer, a question, a picture or a step. */
async function runInstruction(reply: Reply, view: StepView, index: number, ins: Instruction): Promise<void> {
  const { batch } = reply
  if (await handOverFirst(reply, view, ins)) return
  if (instructionEnds(ins.action_type)) {
    batch.answer = ins.params.answer ?? ''
    batch.claims = ins.params.claims
    batch.fields = ins.params.fields
    return
  }
  const work = agentWork(ins.action_type)
  if (work === 'question') return await askInReply(reply, view, ins)
  if (work === 'picture') return await screenshotNext(reply, view, ins)
  await runStepOf(reply, view, index, ins)
}

/**
 * Pause takes effect here, before the next step: this one and the rest of the reply do not run.
 * A one-time code the person did not give is never typed: the page goes to them instead.
 * Says whether the instruction was dealt with so.
 */
async function handOverFirst(reply: Reply, view: StepView, ins: Instruction): Promise<boolean> {
  const { run, batch } = reply
  const takeover = run.pause?.requested()
    ? ({ reason: 'paused', pausedBefore: { index: view.index, description: ins.description } } as const)
    : inventsCode(run.challenge, ins, run.personWords)
      ? ({ reason: 'challenge', challenge: 'code' } as const)
      : undefined
  if (takeover && !run.ports.ask.answer && takeover.reason === 'challenge') {
    // Nobody can take the page here (the CLI): the made-up code is refused, never typed.
    await show(run, { ...view, status: 'failed' })
    batch.failure = {
      error: avaError(
        'STEP_FAILED',
        'The page asks for a one-time code that only you have, and Ava never types one you did not give. Run the request in Ava’s panel and type the code yourself.',
        msg('outcome.codeNobody'),
      ),
    }
    reply.stream.abort()
    return true
  }
  if (takeover && run.ports.ask.answer) {
    await show(run, { ...view, status: 'skipped' })
    const handed = await takeOver(run, takeover.reason, takeover).catch((e: unknown) => ({ error: e }))
    if ('error' in handed) batch.failure = { error: toAvaError(handed.error) }
    else {
      // The reply is not over for the run: the model plans again from the page handed back.
      batch.steps++
      batch.asked = handed
    }
    reply.stream.abort()
    return true
  }
  return false
}

/** The model's `ask`: the rest of the reply waits for the next one, which has the answer. */
async function askInReply(reply: Reply, view: StepView, ins: Instruction): Promise<void> {
  const { batch } = reply
  const asked = await askPerson(reply.run, view, ins).catch((e: unknown) => ({ error: e }))
  if ('error' in asked) {
    batch.failure = { error: toAvaError(asked.error) }
    reply.stream.abort()
    return
  }
  batch.steps++
  batch.asked = asked
  batch.results.push({
    index: view.index,
    action: 'ask',
    description: ins.description,
    ok: true,
    detail: 'asked the person',
  })
}

/** Not a page step (nothing is counted): the next read of the page comes with a picture. */
async function screenshotNext(reply: Reply, view: StepView, ins: Instruction): Promise<void> {
  const { run, batch } = reply
  const can = sees(run)
  run.state.shotAsked = can
  const detail = can
    ? 'A marked screenshot comes with the next look at the page.'
    : 'This model is not sent images; work from the listing.'
  await show(run, {
    ...view,
    status: can ? 'ok' : 'failed',
    detail,
    msg: msg(can ? 'step.screenshotNext' : 'step.screenshotNone'),
  })
  batch.steps++
  batch.results.push({
    index: view.index,
    action: ins.action_type,
    description: ins.description,
    ok: can,
    detail,
  })
}

/** A step of the reply, run (step.ts) and reported for the next turn; a failure or a loop ends the reply. */
async function runStepOf(reply: Reply, view: StepView, index: number, ins: Instruction): Promise<void> {
  const { run, batch } = reply
  const { state } = run
  if (usesLimit(ins)) reply.started++
  let out: ExecOutcome
  try {
    out = await runOneStep(run, view, (recorded) => (reply.said[index] = recorded))
  } catch (e) {
    // The step limit, or a port that failed outright: the rest of the reply is not wanted.
    batch.failure = { error: toAvaError(e) }
    reply.stream.abort()
    return
  }
  batch.steps++
  const items = run.collected.get(view.index)
  run.collected.delete(view.index)
  batch.results.push({
    index: view.index,
    action: ins.action_type,
    description: ins.description,
    ok: out.ok,
    detail: out.ok ? out.detail : out.message,
    ...(items ? { items } : {}),
    ...((out as TabOutcome).page ? { page: (out as TabOutcome).page, tab: (out as TabOutcome).tab } : {}),
  })
  if (!out.ok) {
    // The run ends on the page's own code; the step's row holds the page's own words (details),
    // the message says it once, in the person's language, and the list says which recovery fits.
    batch.failure = {
      error: new AvaError(out.code, `Step ${view.index + 1} failed: ${out.message}`, {
        msg: stepFailureMsg(view.index + 1, out),
        step: true,
      }),
      step: { index: view.index, instruction: reply.said[index] ?? ins, outcome: out },
    }
    reply.stream.abort()
  } else if (isLooping(state.executed, state.after)) {
    batch.failure = {
      error: avaError(
        'STEP_FAILED',
        'Ava did the same step three times in a row and stopped. Tell Ava how to go on.',
        msg('outcome.loop'),
      ),
      stop: true,
    }
    reply.stream.abort()
  }
}

/**
 * The reader of the streamed reply (core/instruction/stream.ts): prose said as it comes, reasoning
 * shown apart, each instruction queued as soon as it is whole; it stops reading where nothing
 * more could run.
 */
function readerOf(reply: Reply, queue: AsyncQueue<Queued>, thinking: Thinking) {
  const { run, batch } = reply
  const { state } = run
  const textBefore = run.text.length
  const rawBefore = run.raw.length
  const splitter = createInstructionSplitter(
    {
      thinking: thinking.add,
      // A `</think>` with no opening tag: what was shown as the answer was reasoning.
      wasThinking: (t) => {
        reply.prose = ''
        run.text = run.text.slice(0, textBefore)
        run.raw = run.raw.slice(0, rawBefore)
        void run.ports.chat.patch(state.messageId, { text: run.text }).catch(() => undefined)
        thinking.add(t)
      },
      prose: (t) => {
        reply.prose += t
        void say(run, t)
        // Past kMaxAnswerChars the chat keeps nothing more and says the answer was cut: stop reading it.
        if (run.text.length > kMaxAnswerChars) cut()
      },
      element: (raw, index) => {
        reply.elements = index + 1
        const parsed = readInstructionText(raw, index)
        if (!parsed.success) {
          // Nothing after an invalid instruction runs: stop reading the reply now.
          queue.push({
            index,
            error: parsed.error.message,
            raw,
            askless: parsed.error.issues.some((i) => i.path === 'params.question'),
          })
          batch.modelNote ??= parsed.error.message
          return cut()
        }
        reply.said[index] = redactInstruction(parsed.data, { sensitive: false })
        // A step or a question gets its row as it arrives; the answer is the message itself.
        const step = !instructionEnds(parsed.data.action_type) && agentWork(parsed.data.action_type) !== 'question'
        if (!instructionEnds(parsed.data.action_type))
          void show(run, { index: reply.base + index, instruction: parsed.data, status: 'pending' })
        queue.push({ index, instruction: parsed.data })
        if (!step || !usesLimit(parsed.data)) return
        // Every step the limit counts costs at least one of it: with the steps queued ahead of it,
        // this one will be refused when its turn comes.
        const ahead = reply.queued++ - reply.started
        if (run.count.atLimit(ahead)) cut()
      },
    },
    { thinksFirst: thinksFirst(activeLlm(run.settings).model) },
  )
  function cut(): void {
    splitter.stop()
    reply.stream.abort()
  }
  return splitter
}

/** Asks the model and reads its reply as it streams; how the reply ended (cut, empty, broken) goes into the batch. */
async function streamReply(
  reply: Reply,
  messages: PlannerMessage[],
  queue: AsyncQueue<Queued>,
  thinking: Thinking,
): Promise<void> {
  const { run, batch, stream, base } = reply
  const { state, signal } = run
  run.hidden = await hiddenOf(run)
  const splitter = readerOf(reply, queue, thinking)
  const system = buildSystemPrompt({ vision: sees(run), compact: compact(run) })
  const asked0 = run.ports.clock.now()
  try {
    const res = await run.ports.llm.stream({
      system,
      messages,
      signal: AbortSignal.any([signal, stream.signal]),
      onText: (delta) => {
        thinking.answering()
        reply.rawReply += delta
        splitter.push(delta)
      },
      onThinking: thinking.add,
      onSlowStart: thinking.slow,
    })
    addUsage(state, res.usage)
    run.recorder.model({
      at: asked0,
      ms: run.ports.clock.now() - asked0,
      system,
      messages,
      output: reply.rawReply,
      tokens: res.usage,
    })
    const end = splitter.end()
    // Cut by the provider's token limit: no broken reply, but a plan with more to come.
    if (res.cutAtLimit && !batch.failure && !stream.signal.aborted && batch.answer === undefined && !batch.asked)
      batch.cutAtLimit = { complete: reply.elements }
    else if (end.truncated !== null && !batch.failure && !stream.signal.aborted)
      batch.failure = { error: cutError(base + (end.sawArray ? reply.elements : 0)) }
    // A reply with no step and no words (only reasoning, or nothing): the person is told what came back.
    if (!batch.failure && !batch.cutAtLimit && !stream.signal.aborted && !end.sawArray && !reply.prose.trim()) {
      batch.failure = {
        error: new AvaError('JSON_PARSE', 'The model replied, but with no steps and no answer.', {
          msg: msg('outcome.emptyReply'),
          details: reply.rawReply.trim() || thinking.text() || '(nothing)',
          recovery: ['regenerate'],
        }),
      }
    }
  } catch (e) {
    // A stream we cut ourselves (a step failed, an invalid or unrunnable instruction came) is no
    // error: the queue says why; a stream cut inside an instruction is.
    if (!stream.signal.aborted && !signal.aborted) {
      const cut = splitter.end().truncated !== null
      batch.failure ??= { error: cut ? cutError(base + reply.elements) : toAvaError(e) }
    }
    run.recorder.model({
      at: asked0,
      ms: run.ports.clock.now() - asked0,
      system,
      messages,
      output: reply.rawReply,
      tokens: {},
      error: stream.signal.aborted ? 'cut by Ava' : String((e as Error)?.message ?? e),
    })
  }
}

/**
 * The model's reasoning, shown collapsed under the run's message (docs/agent.md, "Thinking"):
 * written as it comes, one write at a time (a write in flight gathers what comes meanwhile), and
 * the "loading the model" note while nothing has come yet.
 */
function thinkingWriter(run: Run) {
  const id = run.state.messageId
  let text = run.thinking
  let writing: Promise<void> | null = null
  let dirty = false
  let noted = false
  let fresh = true // a later reply's reasoning starts a paragraph of its own
  const write = (): Promise<void> => {
    if (writing) {
      dirty = true
      return writing
    }
    // [trust] The reasoning shown passes the same redactor as the answer (answer-text.ts).
    const hidden = [...run.hidden, ...run.typed]
    const shown = hidden.length ? redactText(text, hidden) : text
    writing = run.ports.chat
      .patch(id, { thinking: shown, ...(noted ? { notice: undefined } : {}) })
      .catch(() => undefined)
      .then(() => {
        writing = null
        noted = false
        if (dirty) {
          dirty = false
          return write()
        }
      })
    return writing
  }
  return {
    add: (t: string) => {
      if (fresh && text) t = `\n\n${t.trimStart()}`
      fresh = false
      text += t
      run.thinking = text
      void write()
    },
    answering: () => {
      if (noted) void write()
    },
    slow: () => {
      noted = true
      void run.ports.chat.patch(id, { notice: msg('panel.loadingModel') }).catch(() => undefined)
    },
    text: () => text.trim(),
    flush: () => (writing ?? Promise.resolve()).then(() => (noted ? write() : undefined)),
  }
}

export function cutError(index: number): AvaError {
  return avaError(
    'STREAM_CUT',
    `The reply stopped in the middle of step ${index + 1}; the steps before it ran. Try again.`,
    msg('outcome.streamCut', { n: index + 1 }),
  )
}

function placeholder(index: number): Instruction {
  return {
    step_id: index + 1,
    action_type: 'verify',
    params: { assertion: '(invalid)' },
    description: '(invalid instruction)',
  }
}
