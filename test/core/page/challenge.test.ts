// Whose code it is: a code in the person's own words may be typed; any other is made up.
import { describe, expect, it } from 'vitest'
import { codeFromPerson, codeShaped, personGaveCode } from '../../../src/core/page/challenge'

describe('codes from the person', () => {
  it('finds a code the person wrote, in any spacing', () => {
    expect(codeFromPerson('428913', ['log in, the code is 428913'])).toBe(true)
    expect(codeFromPerson('428 913', ['验证码是428913，帮我登录'])).toBe(true)
    expect(codeFromPerson('AB12-CD', ['use backup code ab12-cd?', 'AB12-CD'])).toBe(true)
  })

  it('does not take a number the model made up, or one that is only part of what the person wrote', () => {
    expect(codeFromPerson('123456', ['log in to my account'])).toBe(false)
    expect(codeFromPerson('4289', ['the code is 428913'])).toBe(false)
    expect(personGaveCode(['log in to my account', 'alice'])).toBe(false)
    expect(personGaveCode(['sign in with 6-digit code 771204'])).toBe(true)
  })

  it('tells a code from a word or a sentence', () => {
    expect(codeShaped('428913')).toBe(true)
    expect(codeShaped('AB12-CD')).toBe(true)
    expect(codeShaped('alice')).toBe(false)
    expect(codeShaped('wonderland')).toBe(false)
    expect(codeShaped('order 742 please')).toBe(false)
  })
})
