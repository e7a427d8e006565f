// The one step guard (src/core/gate/guard.ts): one answer for one situation, one navigation rule,
// secrets bound one way, one count, and a pack action's questions before its first step.
import { describe, expect, it } from 'vitest'
import type { ExecFailure, RiskCategory } from '../../../src/core/exec'
import {
  actionQuestions,
  actionRisk,
  askBeforeAction,
  bindSecrets,
  counts,
  createStepCount,
  judgeNavigation,
  refusalOf,
  unattendedAnswer,
  type StepGuard,
} from '../../../src/core/gate/guard'
import type { Answer } from '../../../src/core/gate/step'

function guard(answer: Answer, o: Partial<StepGuard> = {}): StepGuard & { asked: ExecFailure[]; counted: number } {
  const g = {
    asked: [] as ExecFailure[],
    counted: 0,
    confirm: ['destructive', 'payment', 'credentials', 'cross_site', 'high_risk_action'] as RiskCategory[],
    sites: { allow: [], deny: ['bank.test'] },
    here: async () => 'https://shop.test/cart',
    async ask(_reason: string, refusal?: ExecFailure) {
      if (refusal) g.asked.push(refusal)
      return answer
    },
    step() {
      g.counted++
    },
    ...o,
  }
  return g
}

describe('one answer for one situation', () => {
  it('the person said no is DENIED; nobody there is UNATTENDED naming what would allow it; never "by you" for nobody', () => {
    const q = { message: '"Delete account" may delete something', category: 'destructive' as const }
    expect(refusalOf(q, false)).toEqual({
      code: 'DENIED',
      message: 'You said no ("Delete account" may delete something); nothing was done to it.',
    })
    const nobody = refusalOf(q, { unattended: 'running ava run again with --yes' }, 'start')
    expect(nobody.code).toBe('UNATTENDED')
    expect(nobody.message).toBe(
      'Not done: "Delete account" may delete something. It needs a person\'s yes and nobody was there to ask; running ava run again with --yes would allow it. The action was not started.',
    )
    expect(nobody.message).not.toMatch(/by you|you said/i)
  })

  it('a door nobody watches says yes to what it was started with, else names the flag', () => {
    const answer = unattendedAnswer(['credentials'], (c) => `--allow ${c ?? 'all'}`)
    expect(answer({ category: 'credentials' })).toBe(true)
    expect(answer({ category: 'destructive' })).toEqual({ unattended: '--allow destructive' })
    expect(answer({ offsite: 'evil.test' })).toEqual({ unattended: '--allow cross_site' })
    expect(answer(undefined)).toEqual({ unattended: '--allow all' })
  })
})

describe('the navigation rule, for every door', () => {
  it('a denied site is BLOCKED unasked, another site asks, the same site goes; each navigation counts', async () => {
    const no = guard(false)
    expect(await judgeNavigation(no, 'https://bank.test/')).toMatchObject({ code: 'BLOCKED' })
    expect(no.asked).toEqual([])
    expect(await judgeNavigation(no, 'https://mail.other.test/inbox')).toMatchObject({
      code: 'DENIED',
      message: expect.stringContaining('mail.other.test'),
    })
    expect(no.asked[0]).toMatchObject({ offsite: 'mail.other.test' })
    expect(no.counted).toBe(0)
    expect(await judgeNavigation(no, 'https://shop.test/orders')).toBeNull()
    expect(no.counted).toBe(1)
    const nobody = guard({ unattended: '--allow cross_site' })
    expect(await judgeNavigation(nobody, 'https://other.test/')).toMatchObject({
      code: 'UNATTENDED',
      message: expect.stringContaining('--allow cross_site'),
    })
    const yes = guard(true)
    expect(await judgeNavigation(yes, 'https://other.test/')).toBeNull()
    expect(yes.counted).toBe(1)
  })
})

describe('secrets bound to their origin', () => {
  it('types only on an origin every secret is bound to, and says which is not', () => {
    const bound = { PW: ['https://shop.test', 'https://login.shop.test'], OTP: ['https://shop.test'] }
    expect(bindSecrets(['PW', 'OTP'], bound, 'https://shop.test/login')).toEqual({
      ok: true,
      origin: 'https://shop.test',
      sites: ['https://shop.test'],
    })
    expect(bindSecrets(['PW', 'OTP'], bound, 'https://login.shop.test/')).toMatchObject({
      ok: false,
      code: 'SECRET_UNBOUND',
      unbound: ['OTP'],
    })
    expect(bindSecrets(['PW'], bound, 'https://evil.test/')).toMatchObject({
      ok: false,
      message: expect.stringContaining('not kept for https://evil.test'),
    })
    expect(bindSecrets(['PW'], bound, 'about:blank')).toMatchObject({ ok: false })
  })
})

describe('one count', () => {
  it('counts what the vocabulary counts, for DOM actions, instructions and flow steps alike', () => {
    expect([
      counts({ dom: 'click' }),
      counts({ dom: 'verify' }),
      counts({ dom: 'wait' }),
      counts({ dom: 'getText' }),
    ]).toEqual([true, false, false, false])
    expect([
      counts({ instruction: 'input' }),
      counts({ instruction: 'verify' }),
      counts({ instruction: 'wait' }),
      counts({ instruction: 'collect' }),
      counts({ instruction: 'run_action' }),
    ]).toEqual([true, false, false, false, false])
    expect([counts({ flow: 'fill' }), counts({ flow: 'verify' }), counts({ flow: 'go_back' })]).toEqual([
      true,
      false,
      true,
    ])
    expect(counts({ dom: 'navigate' })).toBe(true)
  })

  it('refuses past the limit and never starts again at one', () => {
    const c = createStepCount(2, (n) => new Error(`limit ${n}`))
    c.take({ dom: 'click' })
    c.take({ dom: 'verify' })
    c.take({ dom: 'fill' })
    expect(c.used).toBe(2)
    expect(() => c.take({ dom: 'click' })).toThrow('limit 2')
    expect(() => c.one()).toThrow('limit 2')
    expect(c.used).toBe(2)
  })
})

describe("a pack action's questions, before its first step", () => {
  const login = {
    name: 'common:auth:login',
    risk: 'low' as const,
    params: { username: {}, password: { secret: true } },
  }

  it('a login asks about credentials, a high-risk action about itself, only for the categories that ask', () => {
    expect(
      actionQuestions(login, { secrets: false, url: 'https://shop.test/login' }, ['credentials']).map(
        (q) => q.category,
      ),
    ).toEqual(['credentials'])
    expect(actionQuestions(login, { secrets: false, url: 'https://shop.test/login' }, ['destructive'])).toEqual([])
    expect(
      actionQuestions({ name: 'x:y:delete', risk: 'high', params: {} }, { secrets: false, url: 'https://shop.test/' }, [
        'high_risk_action',
      ]).map((q) => q.category),
    ).toEqual(['high_risk_action'])
  })

  it('a no refuses the whole action before anything is typed; a yes to credentials covers its typing', async () => {
    const q = actionQuestions(login, { secrets: true, url: 'https://shop.test/login' }, ['credentials', 'destructive'])
    expect(
      await askBeforeAction(
        guard({ unattended: '--allow credentials' }, { confirm: ['credentials', 'destructive'] }),
        q,
      ),
    ).toMatchObject({ ok: false, code: 'UNATTENDED', message: expect.stringContaining('--allow credentials') })
    expect(await askBeforeAction(guard(false, { confirm: ['credentials', 'destructive'] }), q)).toMatchObject({
      ok: false,
      code: 'DENIED',
    })
    expect(await askBeforeAction(guard(true, { confirm: ['credentials', 'destructive'] }), q)).toEqual({
      ok: true,
      confirm: ['destructive'],
    })
  })

  it('what a list shows as the risk is what the guard will decide', () => {
    expect(actionRisk(login)).toEqual({ risk: 'high', asks: ['credentials'] })
    expect(actionRisk({ risk: 'low', params: { q: {} } })).toEqual({ risk: 'low', asks: [] })
    expect(actionRisk({ risk: 'high', params: {} })).toEqual({ risk: 'high', asks: ['high_risk_action'] })
  })
})
