// The guard's rule on a one-time code (src/core/gate/challenge.ts, docs/agent.md "Taking over"):
// a code the person did not give is never typed; one they gave, in words or as a saved secret, is.
import { describe, expect, it } from 'vitest'
import { inventsCode, personHasCode } from '../../../src/core/gate/challenge'
import type { Instruction } from '../../../src/core/instruction/schema'
import type { Challenge } from '../../../src/core/page/challenge'

const codePage: Challenge = { kind: 'code', fields: ['input_code'], why: 'autocomplete=one-time-code', sure: false }
const input = (value: string, target_id?: string): Instruction => ({
  step_id: 1,
  action_type: 'input',
  params: { value, ...(target_id ? { target_id } : {}) },
  description: 'Type the code',
})

describe('a code the model made up', () => {
  it('is one typed into a listed code field that the person never wrote', () => {
    expect(inventsCode(codePage, input('482913', 'input_code'), ['sign in to my bank'])).toBe(true)
  })

  it('is one shaped like a code, when the field is named another way', () => {
    expect(inventsCode(codePage, input('771 204'), ['sign in'])).toBe(true)
    expect(inventsCode(codePage, input('hello there'), ['sign in'])).toBe(false)
  })

  it('is not the code the person gave, nor a saved secret, nor anything on a page without a code field', () => {
    expect(inventsCode(codePage, input('482913', 'input_code'), ['sign in with code 482913'])).toBe(false)
    expect(inventsCode(codePage, input('${secret:otp}', 'input_code'), ['sign in'])).toBe(false)
    expect(inventsCode(undefined, input('482913', 'input_code'), ['sign in'])).toBe(false)
    expect(inventsCode({ ...codePage, kind: 'captcha' }, input('482913', 'input_code'), [])).toBe(false)
  })

  it('the person has a code when their words hold one or name a saved secret', () => {
    expect(personHasCode(['sign in with code 428913'])).toBe(true)
    expect(personHasCode(['sign in with ${secret:otp}'])).toBe(true)
    expect(personHasCode(['sign in to my bank'])).toBe(false)
  })
})
