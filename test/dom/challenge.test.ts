// @vitest-environment happy-dom
// What a page draws that only the person can answer: one-time code fields and CAPTCHAs (docs/agent.md, "Taking over").
import { beforeEach, describe, expect, it } from 'vitest'
import { serialize } from '../../src/core/page/serialize'
import { clearAgentIds, observe } from '../../src/dom/observe'
import { findChallenge } from '../../src/dom/challenge'
import { page } from './observe/helpers'

const kind = (body: string) => findChallenge(page(body))?.kind ?? null

describe('one-time code fields', () => {
  beforeEach(() => clearAgentIds())

  it.each([
    [
      'autocomplete=one-time-code (GitHub-style two-factor form)',
      `<form action="/sessions/two-factor" method="post"><h1>Two-factor authentication</h1>
       <label for="app_totp">Authentication code</label>
       <input type="text" name="app_otp" id="app_totp" autocomplete="one-time-code" inputmode="numeric" maxlength="6" class="form-control input-block">
       <button type="submit">Verify</button></form>`,
    ],
    [
      'a tel field named Pin in a form that says a verification code was sent (Google-style)',
      `<form><h1>2-Step Verification</h1><p>A text message with a 6-digit verification code was just sent to ••• ••• ••47</p>
       <input type="tel" id="idvPin" name="Pin" pattern="[0-9 ]*" maxlength="8" aria-label="Enter code"><button>Next</button></form>`,
    ],
    [
      'six one-character boxes of a split code',
      `<form class="otp"><h2>Enter the 6-digit code we sent to your e-mail</h2>
       ${'<input type="text" inputmode="numeric" maxlength="1" class="digit">'.repeat(6)}<button>Confirm</button></form>`,
    ],
    [
      'a Chinese SMS code placeholder',
      `<form><input type="text" placeholder="请输入短信验证码" maxlength="6"><button>登录</button></form>`,
    ],
    [
      'a numeric field in a Chinese form that says a code was sent',
      `<form><h3>手机验证</h3><p>动态码已发送至 138****0000，请在 5 分钟内输入</p><input type="text" inputmode="numeric" maxlength="6"><button>提交</button></form>`,
    ],
    ['a field named verificationCode', `<div><input name="verificationCode" type="text"></div>`],
  ])('%s', (_name, body) => {
    expect(kind(body)).toBe('code')
  })

  it('is sure of a code field its markup names, and of a split code; one known by words only is not', () => {
    const sure = (body: string) => findChallenge(page(body))?.sure
    expect(sure('<form><input autocomplete="one-time-code" maxlength="6"></form>')).toBe(true)
    expect(
      sure(`<form><p>Enter the 6-digit code</p>${'<input inputmode="numeric" maxlength="1">'.repeat(6)}</form>`),
    ).toBe(true)
    expect(sure('<form><label>Verification code <input id="code" type="text"></label></form>')).toBe(false)
    expect(
      sure('<div class="g-recaptcha"><iframe src="https://www.google.com/recaptcha/api2/anchor?k=1"></iframe></div>'),
    ).toBe(true)
  })

  it('names the listed id of the code field, for the run to recognise a step that types into it', () => {
    const doc = page(
      `<form><label for="c">Verification code</label><input id="c" autocomplete="one-time-code" inputmode="numeric" maxlength="6"><button>Verify</button></form>`,
    )
    const { ids } = serialize(observe({ root: doc, includeContent: false }), { budgetTokens: Infinity })
    const found = findChallenge(doc)
    expect(found?.kind).toBe('code')
    expect(found?.fields).toHaveLength(1)
    expect(ids).toContain(found!.fields[0])
  })
})

describe('CAPTCHAs', () => {
  it.each([
    [
      'reCAPTCHA v2 checkbox',
      `<form><div class="g-recaptcha" data-sitekey="6Lc"><div style="width:304px;height:78px"><iframe title="reCAPTCHA" width="304" height="78" src="https://www.google.com/recaptcha/api2/anchor?ar=1&k=6Lc&co=aHR0&hl=en&v=x&size=normal"></iframe></div></div></form>`,
    ],
    [
      'hCaptcha',
      `<div class="h-captcha" data-sitekey="10000000"><iframe src="https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html#frame=checkbox&id=0ub" title="Widget containing checkbox for hCaptcha security challenge"></iframe></div>`,
    ],
    [
      'Cloudflare Turnstile',
      `<div class="cf-turnstile" data-sitekey="0x4AAA"><iframe src="https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/rcv0/0/abc/light/normal"></iframe></div>`,
    ],
    [
      'a picture CAPTCHA on a Chinese login form',
      `<form><input name="user" placeholder="用户名"><input type="password" name="pwd"><img src="/captcha.jpg?t=17" alt="图形验证码"><input name="imgcode" placeholder="请输入图形验证码" maxlength="4"><button>登录</button></form>`,
    ],
    ['a field labelled captcha', `<form><label>Type the characters you see <input name="captcha_text"></label></form>`],
  ])('%s', (_name, body) => {
    expect(kind(body)).toBe('captcha')
  })
})

describe('pages that ask for no code', () => {
  it.each([
    [
      'a search box with numeric inputmode',
      `<form role="search"><input type="search" inputmode="numeric" name="q" placeholder="Order number"><button>Search</button></form>`,
    ],
    [
      'a text search field with numeric inputmode and a short maxlength',
      `<form><input type="text" inputmode="numeric" maxlength="6" name="q" placeholder="Search orders"><button>Go</button></form>`,
    ],
    ['a postcode field', `<form><label>Postcode <input inputmode="numeric" maxlength="5" name="zip"></label></form>`],
    [
      "a card's security code",
      `<form><label>Security code <input autocomplete="cc-csc" inputmode="numeric" maxlength="4" name="cvc"></label><button>Pay</button></form>`,
    ],
    [
      'the badge of an invisible reCAPTCHA (v3)',
      `<form><input name="email"><button>Subscribe</button></form><div class="grecaptcha-badge" data-style="bottomright"><div class="grecaptcha-logo"><iframe title="reCAPTCHA" src="https://www.google.com/recaptcha/api2/anchor?ar=1&k=6Le&size=invisible"></iframe></div></div>`,
    ],
    ['a code field in a hidden template', `<div hidden><input autocomplete="one-time-code" maxlength="6"></div>`],
    ['a code field not drawn', `<div style="display:none"><input autocomplete="one-time-code" maxlength="6"></div>`],
    [
      'a login form',
      `<form><label>Username <input name="username" autocomplete="username"></label><label>Password <input type="password" name="password" autocomplete="current-password"></label><button>Log in</button></form>`,
    ],
    [
      'a quantity field on a page whose article talks of two-factor codes',
      `<article><p>Turn on two-factor authentication: a verification code protects your account.</p></article>
       <form><label>Quantity <input type="number" maxlength="4" name="qty"></label><button>Add to cart</button></form>`,
    ],
  ])('%s', (_name, body) => {
    expect(kind(body)).toBeNull()
  })
})
