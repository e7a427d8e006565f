// The one registry of questions waiting on the person (src/core/gate/questions.ts): its rules for a
// second answer, an answer after the question closed, an answer from elsewhere, Stop, the end of
// what asked, a closed tab and a popup nobody answers.
import { describe, expect, it } from 'vitest'
import { createQuestionRegistry, type QuestionRegistry } from '../../../src/core/gate/questions'

/** Timers the test fires by hand. */
function manualTimers() {
  const pending = new Map<number, () => void>()
  let next = 0
  return {
    set: (fn: () => void) => (pending.set(++next, fn), next),
    clear: (t: unknown) => void pending.delete(t as number),
    fireAll: () => [...pending.values()].forEach((fn) => fn()),
    get size() {
      return pending.size
    },
  }
}

const tab = (n: number) => ({ tab: n })

describe('one registry of questions', () => {
  let r: QuestionRegistry

  it('takes the first answer from the place that shows the question, and refuses a second (rule: first-answer)', async () => {
    r = createQuestionRegistry()
    const asked = r.ask({ id: 'card1', place: tab(3), owner: 'run_a' })
    expect(r.open()).toEqual([{ id: 'card1', place: tab(3), owner: 'run_a' }])
    expect(r.answer(tab(3), 'card1', true)).toEqual({ ok: true })
    expect(await asked).toEqual({ allow: true, by: 'person' })
    // Answered twice (a double click, a second panel on the same conversation): the first stands.
    expect(r.answer(tab(3), 'card1', false)).toEqual({ ok: false, reason: 'answered' })
    expect(r.open()).toEqual([])
  })

  it('refuses an answer from another tab or another popup run; the question stays open (rule: elsewhere)', async () => {
    r = createQuestionRegistry()
    const asked = r.ask({ id: 'card1', place: tab(3), owner: 'run_a' })
    expect(r.answer(tab(4), 'card1', true)).toEqual({ ok: false, reason: 'elsewhere' })
    expect(r.answer({ popup: 'p1' }, 'card1', true)).toEqual({ ok: false, reason: 'elsewhere' })
    const popup = r.ask({ id: 'pq1', place: { popup: 'p1' }, owner: 'p1' })
    expect(r.answer({ popup: 'p2' }, 'pq1', true)).toEqual({ ok: false, reason: 'elsewhere' })
    expect(r.answer(tab(3), 'pq1', true)).toEqual({ ok: false, reason: 'elsewhere' })
    expect(r.open().map((q) => q.id)).toEqual(['card1', 'pq1'])
    r.answer(tab(3), 'card1', false)
    r.answer({ popup: 'p1' }, 'pq1', true)
    expect(await asked).toEqual({ allow: false, by: 'person' })
    expect(await popup).toEqual({ allow: true, by: 'person' })
  })

  it('Stop is a no, and an answer after it is refused as closed, not taken (rule: stop)', async () => {
    r = createQuestionRegistry()
    const stop = new AbortController()
    const asked = r.ask({ id: 'card1', place: tab(3), owner: 'run_a', signal: stop.signal })
    stop.abort()
    expect(await asked).toEqual({ allow: false, by: 'stopped' })
    expect(r.answer(tab(3), 'card1', true)).toEqual({ ok: false, reason: 'closed' })
    // Asked after Stop already: a no at once.
    expect(await r.ask({ id: 'card2', place: tab(3), owner: 'run_a', signal: stop.signal })).toEqual({
      allow: false,
      by: 'stopped',
    })
  })

  it('closes the questions of what ended, and only those (rule: owner-ended)', async () => {
    r = createQuestionRegistry()
    const a = r.ask({ id: 'a1', place: tab(3), owner: 'run_a' })
    const b = r.ask({ id: 'b1', place: tab(3), owner: 'replay_b' })
    expect(r.end('run_a')).toBe(1)
    expect(await a).toEqual({ allow: false, by: 'ended' })
    expect(r.answer(tab(3), 'a1', true)).toEqual({ ok: false, reason: 'closed' })
    expect(r.answer(tab(3), 'b1', true)).toEqual({ ok: true })
    expect(await b).toEqual({ allow: true, by: 'person' })
  })

  it('closes every question shown in a tab (Stop pressed there, the tab closed), whoever asked', async () => {
    r = createQuestionRegistry()
    const a = r.ask({ id: 'a1', place: tab(3), owner: 'run_a' })
    const b = r.ask({ id: 'b1', place: tab(3), owner: 'mcp_b' })
    const c = r.ask({ id: 'c1', place: tab(4), owner: 'run_c' })
    expect(r.closeTab(3, 'tab-closed')).toBe(2)
    expect(await a).toEqual({ allow: false, by: 'tab-closed' })
    expect(await b).toEqual({ allow: false, by: 'tab-closed' })
    expect(r.open().map((q) => q.id)).toEqual(['c1'])
    r.answer(tab(4), 'c1', true)
    expect(await c).toEqual({ allow: true, by: 'person' })
  })

  it('a question with a time limit (a popup that may have been closed) ends as a no (rule: popup-timeout)', async () => {
    const timers = manualTimers()
    r = createQuestionRegistry(timers)
    const asked = r.ask({ id: 'pq', place: { popup: 'p1' }, owner: 'p1', timeoutMs: 120_000 })
    expect(timers.size).toBe(1)
    timers.fireAll()
    expect(await asked).toEqual({ allow: false, by: 'timeout' })
    expect(r.answer({ popup: 'p1' }, 'pq', true)).toEqual({ ok: false, reason: 'closed' })
    // An answer in time clears its timer.
    const again = r.ask({ id: 'pq2', place: { popup: 'p1' }, owner: 'p1', timeoutMs: 120_000 })
    r.answer({ popup: 'p1' }, 'pq2', false)
    expect(await again).toEqual({ allow: false, by: 'person' })
    expect(timers.size).toBe(0) // no timer left behind, fired or not
  })

  it('knows nothing of an id it never held (a card from before a worker restart), and refuses a reused id', () => {
    r = createQuestionRegistry()
    expect(r.answer(tab(3), 'from-before', true)).toEqual({ ok: false, reason: 'unknown' })
    void r.ask({ id: 'x', place: tab(3), owner: 'o' })
    expect(() => r.ask({ id: 'x', place: tab(3), owner: 'o' })).toThrow(/asked before/)
  })

  it('gives the same answer to the same situation whoever asked (agent run, replay, MCP session, popup)', async () => {
    r = createQuestionRegistry()
    const owners = ['run_1', 'replay_1', 'mcp_1', 'popupq']
    for (const owner of owners) {
      const place = owner === 'popupq' ? { popup: 'pr' } : tab(9)
      const stop = new AbortController()
      const yes = r.ask({ id: `${owner}-y`, place, owner })
      const no = r.ask({ id: `${owner}-n`, place, owner })
      const stopped = r.ask({ id: `${owner}-s`, place, owner, signal: stop.signal })
      expect(r.answer(place, `${owner}-y`, true)).toEqual({ ok: true })
      expect(r.answer(place, `${owner}-n`, false)).toEqual({ ok: true })
      stop.abort()
      expect([await yes, await no, await stopped]).toEqual([
        { allow: true, by: 'person' },
        { allow: false, by: 'person' },
        { allow: false, by: 'stopped' },
      ])
      expect([r.answer(place, `${owner}-y`, false), r.answer(place, `${owner}-s`, true)]).toEqual([
        { ok: false, reason: 'answered' },
        { ok: false, reason: 'closed' },
      ])
    }
  })
})
