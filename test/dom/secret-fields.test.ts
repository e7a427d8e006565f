// @vitest-environment happy-dom
// fields whose value is never listed — password-like by what they are, or because a secret went in.
import { beforeEach, describe, expect, it } from 'vitest'
import { serialize } from '../../src/core/page/serialize'
import { clearAgentIds, observe } from '../../src/dom/observe'
import { holdsSecret, markSecretField } from '../../src/dom/secret-fields'
import { page } from './observe/helpers'

const listing = (doc: Document) =>
  serialize(observe({ root: doc, includeContent: false }), { budgetTokens: Infinity }).text

describe('fields listed without their value', () => {
  beforeEach(() => clearAgentIds())

  it.each([
    ['<input type="password" value="VAL-1">'],
    ['<input autocomplete="one-time-code" value="VAL-1">'],
    ['<input autocomplete="section-a cc-number" value="VAL-1">'],
    ['<input autocomplete="new-password" value="VAL-1">'],
    ['<input name="otp" value="VAL-1">'],
    ['<input name="verificationCode" value="VAL-1">'],
    ['<input id="card_cvv" value="VAL-1">'],
    ['<input name="pin" value="VAL-1">'],
    ['<input name="passcode" value="VAL-1">'],
    // Red-team finding 8: short and other common names for a secret.
    ['<input name="pass" value="VAL-1">'],
    ['<input name="user_pw" value="VAL-1">'],
    ['<input name="password2" value="VAL-1">'],
    ['<input name="password_hint" value="VAL-1">'],
    ['<input id="clientSecret" value="VAL-1">'],
    ['<input name="api-token" value="VAL-1">'],
    ['<input name="tan" value="VAL-1">'],
    ['<input name="ssn" value="VAL-1">'],
  ])('%s', (html) => {
    const doc = page(`<label>Field ${html}</label>`)
    expect(holdsSecret(doc.querySelector('input')!)).toBe(true)
    expect(listing(doc)).not.toContain('VAL-1')
  })

  it.each([
    ['<input name="zip_code" value="VAL-2">'],
    ['<input name="promoCode" value="VAL-2">'],
    ['<input name="shipping" value="VAL-2">'],
    ['<input name="spinner" value="VAL-2">'],
    ['<input name="passenger" value="VAL-2">'],
    ['<input name="passport_country" value="VAL-2">'],
    ['<input name="tangent" value="VAL-2">'],
    ['<input name="secretary" value="VAL-2">'],
    ['<input name="tokenizer" value="VAL-2">'],
  ])('keeps the value of a field that only looks like one: %s', (html) => {
    const doc = page(`<label>Field ${html}</label>`)
    expect(holdsSecret(doc.querySelector('input')!)).toBe(false)
    expect(listing(doc)).toContain('VAL-2')
  })

  it('a plain text field is redacted once a secret went into it, a widget wrapping its input too', () => {
    const doc = page(
      '<label>Verification code <input id="plain" value="VAL-3"></label><div id="w"><label>Token <input id="inner" value="VAL-4"></label></div>',
    )
    expect(listing(doc)).toContain('VAL-3')
    markSecretField(doc.getElementById('plain')!)
    markSecretField(doc.getElementById('w')!)
    const text = listing(doc)
    expect(text).not.toContain('VAL-3')
    expect(text).not.toContain('VAL-4')
  })
})
