// The one question loop every step passes (src/core/gate/step.ts): the same page answers get the
// same questions, whoever wrote the step.
import { describe, expect, it } from 'vitest'
import type { ExecFailure, ExecOutcome } from '../../../src/core/exec'
import { askUntilDecided, kMaxStepQuestions, questionOf } from '../../../src/core/gate/step'

const ask = (handle: string): ExecFailure => ({
  ok: false,
  code: 'NEEDS_CONFIRMATION',
  message: `Delete? (${handle})`,
  handle,
})
const done: ExecOutcome = { ok: true, detail: 'Clicked' }
const q = (out: ExecOutcome) => (!out.ok && out.code === 'NEEDS_CONFIRMATION' ? out : null)

/** A page that answers from a script, recording how each send went. */
function page(answers: ExecOutcome[]) {
  const sends: ({ bound?: string } | undefined)[] = []
  // The command the loop sends: the step's own, then confirmed and bound after a yes.
  const send = async (c: { confirmed?: boolean; bound?: string }) => (
    sends.push(c.confirmed ? { ...(c.bound ? { bound: c.bound } : {}) } : undefined),
    answers[sends.length - 1] ?? done
  )
  return { sends, send }
}

describe('askUntilDecided', () => {
  it('a step the page does not ask about is sent once, nothing asked', async () => {
    const p = page([done])
    let asked = 0
    const r = await askUntilDecided({}, p.send, q, async () => (asked++, true))
    expect(r).toEqual({ out: done })
    expect(p.sends).toEqual([undefined])
    expect(asked).toBe(0)
  })

  it('a yes goes again bound to the element the question showed', async () => {
    const p = page([ask('h1'), done])
    const r = await askUntilDecided({}, p.send, q, async () => true)
    expect(r.out).toEqual(done)
    expect(p.sends).toEqual([undefined, { bound: 'h1' }])
  })

  it('a no ends the step with the question it answered, and nothing is sent again', async () => {
    const p = page([ask('h1'), done])
    const r = await askUntilDecided({}, p.send, q, async () => false)
    expect(r.declined?.handle).toBe('h1')
    expect(p.sends).toHaveLength(1)
  })

  it('an element that changed under each yes is asked about again, then refused', async () => {
    const p = page([ask('h1'), ask('h2'), ask('h3'), ask('h4'), done])
    const seen: string[] = []
    const r = await askUntilDecided(
      {},
      p.send,
      q,
      async (question: ExecFailure, asked: number) => (seen.push(`${asked}:${question.handle}`), true),
    )
    expect(seen).toEqual(['0:h1', '1:h2', '2:h3'])
    expect(p.sends).toHaveLength(kMaxStepQuestions + 1)
    // The last answer is the page's refusal: the step is not done.
    expect(r.out.ok).toBe(false)
    expect(r.declined).toBeUndefined()
  })
})

describe('questionOf', () => {
  it('reads a refused act and a refused flow step alike', () => {
    expect(questionOf(ask('h'))?.handle).toBe('h')
    const flow = {
      ok: true as const,
      outcome: {
        ok: false as const,
        code: 'NEEDS_CONFIRMATION' as const,
        message: 'Pay?',
        candidates: [],
        resolveMs: 0,
        acted: false,
        category: 'payment' as const,
        question: { handle: 'f1' },
      },
    }
    expect(questionOf(flow)).toMatchObject({
      code: 'NEEDS_CONFIRMATION',
      message: 'Pay?',
      category: 'payment',
      handle: 'f1',
    })
    expect(questionOf({ ok: true, detail: 'x' })).toBeNull()
    expect(questionOf({ ok: false, code: 'BLOCKED', message: 'no' })).toBeNull()
  })
})
