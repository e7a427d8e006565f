/**
 * What a run gathers from a page: a `collect` step's rounds of scroll-and-read, its table, and the
 * rows of the shape a run was asked for (docs/extraction.md).
 */
import type { StepView } from '../chat'
import { stepResult, type ExecFailure, type ExecOutcome } from '../exec'
import type { Instruction } from '../instruction/schema'
import { buildSystemPrompt } from './prompt'
import { collectItems, kDefaultCollectLimit, tableOf, type CollectedTable } from '../page/collect'
import { targetOf } from '../page/command'
import { msg } from './outcome'
import { redactDeep } from './redact'
import { readItems } from './sources'
import { extractForRun, itemForShape } from './extraction'
import { parseShape } from '../extract/shape'
import { type Run, show, hiddenOf, addUsage } from './context'

/**
 * A `collect` step: rounds of scroll-and-read in the page until the limit, the
 * list's end or the time budget, with the count shown under the step as it grows; Stop ends it
 * between two rounds. The items go to the next prompt (inside the page block) and, as a table,
 * under the step for the person to save.
 */
export async function runCollect(
  run: Run,
  view: StepView,
  ins: Instruction,
): Promise<{ out: ExecOutcome; secrets: string[] }> {
  const { state, ports, signal } = run
  const round = ports.page.collectRound
  if (!round)
    return {
      out: { ok: false, code: 'INVALID', message: 'Collecting a feed is not available here.' } as ExecFailure,
      secrets: [],
    }
  state.noCache = true // what a feed holds changes: the answer is not a plan to replay
  const limit = ins.params.limit ?? kDefaultCollectLimit
  const target = targetOf(ins.params)
  const session = `${state.id}:${view.index}:${ports.clock.now()}`
  let failure: ExecFailure | undefined
  // [trust] What a feed holds is page text like the listing: a page's echo of a secret, in any shape, is cut out of each item (redact.ts).
  const hidden = await hiddenOf(run)
  const result = await collectItems({
    limit,
    signal,
    now: () => ports.clock.now(),
    round: async (first) => {
      const r = await round(state.tabId, { session, first, ...(target ? { target } : {}) }, signal)
      if ('ok' in r && r.ok === false) {
        failure = r
        return { items: [], moved: false, container: '' }
      }
      return redactDeep(r as Exclude<typeof r, ExecFailure>, hidden)
    },
    onProgress: (n) => void show(run, { ...view, status: 'running', msg: stepResult('collecting', { n, limit }) }),
  })
  if (failure) return { out: failure, secrets: [] }
  if (!result.items.length)
    return {
      out: {
        ok: false,
        code: 'ELEMENT_NOT_FOUND',
        message: 'No list or feed with items was found on the page to collect.',
        msg: msg('outcome.step.nothingToCollect'),
      } as ExecFailure,
      secrets: [],
    }
  run.collected.set(
    view.index,
    result.items.map((i) => (state.shape ? itemForShape(i) : i.cells ? i.cells.join(' | ') : i.text)),
  )
  readItems(run.reading, view.index, run.collected.get(view.index)!, result.items)
  run.tables.set(view.index, clipTable(tableOf(result.items, result.columns)))
  const n = result.items.length
  const why = { limit: 'the limit', end: 'the end of the list', time: 'the time budget', rounds: 'the scroll limit' }[
    result.end
  ]
  return {
    out: {
      ok: true,
      detail: `Collected ${n} items from ${result.container} (stopped at ${why}, ${result.rounds} rounds)`,
      msg: stepResult(result.end === 'limit' ? 'collected' : result.end === 'end' ? 'collectedEnd' : 'collectedTime', {
        n,
      }),
    },
    secrets: [],
  }
}

/**
 * The rows of the shape the run was asked for, read from every item it collected with the
 * model's field map; the values that do not fit are asked about once, in one model call.
 */
export async function extractRowsOf(run: Run, fields: Record<string, number | null>): Promise<void> {
  const { state, ports, signal } = run
  const ask = async (prompt: string) => {
    let text = ''
    const res = await ports.llm.stream({
      system: buildSystemPrompt(),
      messages: [{ role: 'user', content: prompt }],
      signal,
      onText: (d) => void (text += d),
    })
    addUsage(state, res.usage)
    return text
  }
  const got = await extractForRun(state.shape!, run.reading.gathered, fields, ask)
  const names = parseShape(state.shape!).fields.map((f) => f.name)
  await ports.chat.patch(state.messageId, { extraction: { fields: names, ...got } })
}

/** A collected table kept in the chat stays under this many characters; rows past it are dropped. */
const kMaxTableChars = 300_000

function clipTable(t: CollectedTable): CollectedTable {
  let used = t.columns.join('').length
  const rows: string[][] = []
  for (const r of t.rows) {
    used += r.reduce((a, c) => a + c.length, 0)
    if (used > kMaxTableChars) break
    rows.push(r)
  }
  return { columns: t.columns, rows }
}
