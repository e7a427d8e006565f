/**
 * The one registry of questions waiting on the person (docs/architecture.md, "Questions"): every
 * Allow / Deny question, whoever asked it — the model's step (core/agent/run.ts), a pack's or a
 * flow's step (`/run`, the popup's Run, a replay), a cached plan's review, an MCP client in the
 * extension — waits here under the id of its card, and every answer comes through `answer`, so the
 * same situation gets the same answer whatever wrote the step:
 *
 * - the first answer decides; a second one is refused (`answered`) and changes nothing;
 * - a question closed by Stop, by the end of what asked it, by its tab closing or by its time
 *   running out is a no, and an answer that comes after is refused (`closed`);
 * - only the place that shows the question may answer it (the tab's panel, or the popup run that
 *   asked): any other is refused (`elsewhere`) and the question stays open;
 * - an id the registry never held (a card from before a worker restart: the registry lives in
 *   the worker's memory and dies with it) is `unknown`; the caller closes that card, nothing is done;
 * - a navigation of the tab leaves the question open: a yes is bound to the element the question
 *   showed (core/gate/step.ts), and the page refuses it when that element has gone with its
 *   document — nothing is acted on in its place.
 *
 * Pure: no chrome, no DOM; the background holds the one instance (src/background/questions.ts).
 */

/** Where a question is shown, which is also who may answer it. */
export type QuestionPlace = { tab: number } | { popup: string }

/** Why a question ended without the person's answer. Each is a no. */
export type Closing = 'stopped' | 'ended' | 'tab-closed' | 'timeout'

/** How a question was settled: the person's answer, or a closing (always `allow: false`). */
export type Settled = { allow: boolean; by: 'person' } | { allow: false; by: Closing }

export interface Question {
  /** The id of its card (the chat message, or the popup's question). */
  id: string
  place: QuestionPlace
  /** What asked it (a run, a replay, an MCP session, a popup run): `end(owner)` closes its questions. */
  owner: string
  /** Stop: the question closes as a no (`stopped`). */
  signal?: AbortSignal
  /** A question nobody can be seen answering (a popup that was closed) ends as a no after this long. */
  timeoutMs?: number
}

export type AnswerRefusal = 'answered' | 'closed' | 'elsewhere' | 'unknown'
export type AnswerResult = { ok: true } | { ok: false; reason: AnswerRefusal }

/** How many settled questions are remembered, to tell a second answer from a stray one. */
const kSettledKept = 500

export interface QuestionRegistry {
  /** Waits for the person's answer, or the question's closing. */
  ask(q: Question): Promise<Settled>
  /** The person's answer to question `id`, given at `from`. */
  answer(from: QuestionPlace, id: string, allow: boolean): AnswerResult
  /** Closes every open question of `owner` (its run ended); how many. */
  end(owner: string, why?: Closing): number
  /** Closes every open question shown in a tab (Stop pressed there, or the tab closed); how many. */
  closeTab(tab: number, why: Closing): number
  /** The questions open now. */
  open(): readonly Omit<Question, 'signal'>[]
}

const samePlace = (a: QuestionPlace, b: QuestionPlace) =>
  'tab' in a && 'tab' in b ? a.tab === b.tab : 'popup' in a && 'popup' in b && a.popup === b.popup

export function createQuestionRegistry(
  timers: { set(fn: () => void, ms: number): unknown; clear(t: unknown): void } = {
    set: (fn, ms) => setTimeout(fn, ms),
    clear: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
  },
): QuestionRegistry {
  const waiting = new Map<string, { q: Question; settle(s: Settled): void }>()
  const settled = new Map<string, Settled>()

  const remember = (id: string, s: Settled) => {
    settled.set(id, s)
    if (settled.size > kSettledKept) settled.delete(settled.keys().next().value!)
  }

  const close = (pick: (q: Question) => boolean, why: Closing) => {
    let n = 0
    for (const w of [...waiting.values()]) {
      if (!pick(w.q)) continue
      w.settle({ allow: false, by: why })
      n++
    }
    return n
  }

  return {
    ask(q) {
      if (waiting.has(q.id) || settled.has(q.id))
        throw new Error(`Question ${q.id} was asked before; every question has an id of its own.`)
      return new Promise<Settled>((resolve) => {
        let timer: unknown
        const onAbort = () => settle({ allow: false, by: 'stopped' })
        function settle(s: Settled) {
          if (waiting.get(q.id)?.settle !== settle) return
          waiting.delete(q.id)
          remember(q.id, s)
          q.signal?.removeEventListener('abort', onAbort)
          if (timer !== undefined) timers.clear(timer)
          resolve(s)
        }
        waiting.set(q.id, { q, settle })
        if (q.signal?.aborted) return settle({ allow: false, by: 'stopped' })
        q.signal?.addEventListener('abort', onAbort, { once: true })
        if (q.timeoutMs !== undefined) timer = timers.set(() => settle({ allow: false, by: 'timeout' }), q.timeoutMs)
      })
    },
    answer(from, id, allow) {
      const w = waiting.get(id)
      if (!w) {
        const s = settled.get(id)
        return { ok: false, reason: !s ? 'unknown' : s.by === 'person' ? 'answered' : 'closed' }
      }
      if (!samePlace(from, w.q.place)) return { ok: false, reason: 'elsewhere' }
      w.settle({ allow, by: 'person' })
      return { ok: true }
    },
    end: (owner, why = 'ended') => close((q) => q.owner === owner, why),
    closeTab: (tab, why) => close((q) => 'tab' in q.place && q.place.tab === tab, why),
    open: () => [...waiting.values()].map(({ q: { signal: _signal, ...rest } }) => rest),
  }
}
