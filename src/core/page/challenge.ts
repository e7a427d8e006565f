/**
 * A page that asks for what only the person has: a one-time code sent to their phone or app, or a
 * CAPTCHA. Ava never types a code the model made up and never tries to solve a CAPTCHA; it hands
 * the page to the person instead (docs/agent.md, "Taking over"). This module decides from facts
 * the page side gathered (src/dom/challenge.ts), so Node tests reach the rules and every context
 * can import them.
 */

/** `code`: a one-time code field; `captcha`: a CAPTCHA widget or a field asking for the code a picture shows. */
export type ChallengeKind = 'code' | 'captcha'

export interface Challenge {
  kind: ChallengeKind
  /** Listed ids of the code fields drawn on the page (what a `type` step would name). */
  fields: string[]
  /** Why it counts, for logs and the model: `autocomplete=one-time-code`, `recaptcha frame`, … */
  why: string
  /**
   * Said by the page's own markup for it (`autocomplete="one-time-code"`, a code split into boxes,
   * a CAPTCHA widget's frame or container): the run hands the page over at once. Known only by
   * words (a label, a name, the form's text), it is told to the model and typing into it is guarded.
   */
  sure: boolean
}

/** What the page side reads off one drawn text field. */
export interface FieldFacts {
  /** The id the listing gave the field, if it was listed. */
  id?: string
  type: string
  autocomplete: string
  inputmode: string
  /** `maxlength`, or undefined when absent or not a number. */
  maxLength?: number
  /** The field's own words: name, id, accessible name, label, placeholder, aria-label, title. */
  words: string
  /** The words around it: its form, or the nearest section or dialog holding it, cut short. */
  context: string
}

export interface ChallengeFacts {
  fields: FieldFacts[]
  /** `src` of the drawn frames. */
  frames: string[]
  /** Class names and ids of drawn containers that CAPTCHA widgets render into. */
  widgets: string[]
  /** Words of drawn images (alt, src file name), for a picture CAPTCHA. */
  images: string[]
}

/**
 * Words that say "a code sent to you", in English and Chinese. Matched on the field's own words or
 * the form around it, never on the whole page: a blog post about 2FA is no code page.
 */
const kCodeWords =
  /\b(?:otp|one[-\s]?time(?:[-\s]?(?:pass)?code|\s+password)?|2fa|mfa|two[-\s]?(?:factor|step)|verification\s+code|verify\s+code|authentication\s+code|auth\s+code|login\s+code|sign[-\s]?in\s+code|confirmation\s+code|sms\s+code|passcode|authenticator|(?:\d|four|six|eight)[-\s]?digit\s+code|code\s+(?:we\s+|was\s+)?(?:sent|texted|emailed))\b|verificationcode|otpcode|smscode|mfacode|验证码|校验码|动态码|动态密码|短信码|安全码|确认码|两步验证|二次验证|双重验证/i
/** Words that say "type what the picture shows". */
const kCaptchaWords = /captcha|图形验证码|图片验证码|看不清|人机验证|滑块验证/i
/** Third-party CAPTCHA widgets, by where their frames come from. */
const kCaptchaFrame =
  /^https?:\/\/(?:[a-z0-9-]+\.)*(?:google\.com\/recaptcha|recaptcha\.net|gstatic\.com\/recaptcha|hcaptcha\.com|challenges\.cloudflare\.com|arkoselabs\.com|funcaptcha\.com|geetest\.com|captcha\.)/i
/** …and by the containers their scripts render into. */
const kCaptchaWidget = /(?:^|[\s_-])(?:g-recaptcha|grecaptcha|h-captcha|cf-turnstile|geetest|captcha)(?:[\s_-]|$)/i

/** One-time codes are 4 to 8 characters; a field of one character is a box of a split code. */
const kShortestCode = 4
const kLongestCode = 8
/** A code split into boxes of one character each has at least this many. */
const kSplitBoxes = 4

function isAutocompleteCode(f: FieldFacts): boolean {
  return /(?:^|\s)one-time-code(?:\s|$)/i.test(f.autocomplete)
}

function isNumericEntry(f: FieldFacts): boolean {
  return /^(?:numeric|decimal)$/i.test(f.inputmode) || /^(?:tel|number)$/i.test(f.type) || /^\d+$/.test(f.inputmode)
}

/** Splits `verificationCode`, `otp_code`, `sms-code` into words, so names read as labels do. */
function words(s: string): string {
  return s.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_.-]+/g, ' ')
}

/** Types whose value is no code, or is said by its autocomplete alone (a masked code field). */
const kNotCode = /^(?:hidden|password|email|search|url|checkbox|radio|file|submit|button|reset|image|range|color)$/i

/** Whether one field asks for a one-time code; `boxes`: how many one-character fields the page draws. */
export function isCodeField(f: FieldFacts, boxes = 1): boolean {
  if (/(?:^|\s)cc-/i.test(f.autocomplete)) return false // a card's security code is the person's to give, not sent to them
  if (isAutocompleteCode(f)) return !/^(?:hidden|checkbox|radio|file|submit|button)$/i.test(f.type)
  if (kNotCode.test(f.type)) return false
  if (kCodeWords.test(words(f.words))) return true
  // A numeric field of code length (or one box of a split code) in a form that talks of codes: a
  // postcode or quantity field elsewhere does not count, and a search box has no code words.
  if (!isNumericEntry(f) || f.maxLength === undefined) return false
  const fits = boxes >= kSplitBoxes ? f.maxLength === 1 : f.maxLength >= kShortestCode && f.maxLength <= kLongestCode
  return fits && kCodeWords.test(words(f.context))
}

function captchaField(f: FieldFacts): boolean {
  return kCaptchaWords.test(words(f.words)) && !/^(?:hidden|checkbox|radio|submit|button)$/i.test(f.type)
}

/** The CAPTCHA or code the facts show, or undefined. A CAPTCHA is named first: it is what blocks the form. */
export function challengeOf(facts: ChallengeFacts): Challenge | undefined {
  // reCAPTCHA v3 and invisible v2 draw only a badge and ask the person nothing.
  const frame = facts.frames.find((src) => kCaptchaFrame.test(src) && !/[?&]size=invisible\b/.test(src))
  if (frame) return { kind: 'captcha', fields: [], why: `captcha frame ${new URL(frame).host}`, sure: true }
  const widget = facts.widgets.find((w) => kCaptchaWidget.test(w) && !/grecaptcha-badge/.test(w))
  if (widget) return { kind: 'captcha', fields: [], why: `captcha widget "${widget.slice(0, 40)}"`, sure: true }
  const pictured = facts.fields.filter(captchaField)
  if (
    pictured.length ||
    (facts.images.some((i) => kCaptchaWords.test(i)) && facts.fields.some((f) => /验证码|code/i.test(f.words)))
  )
    return {
      kind: 'captcha',
      fields: pictured.flatMap((f) => (f.id ? [f.id] : [])),
      why: 'a field for the code a picture shows',
      sure: false,
    }
  const boxes = facts.fields.filter((f) => f.maxLength === 1).length
  const codes = facts.fields.filter((f) => !captchaField(f) && isCodeField(f, boxes))
  if (!codes.length) return undefined
  return {
    kind: 'code',
    fields: codes.flatMap((f) => (f.id ? [f.id] : [])),
    why: codes.some(isAutocompleteCode) ? 'autocomplete=one-time-code' : 'a one-time code field',
    sure: codes.some(isAutocompleteCode) || (boxes >= kSplitBoxes && codes.length >= kSplitBoxes),
  }
}

/** A string a person could have been sent as a one-time code: 4 to 10 letters or digits, at least one digit. */
const kCodeShaped = /(?<![A-Za-z0-9])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9][A-Za-z0-9-]{2,8}[A-Za-z0-9](?![A-Za-z0-9])/g

/** The code-shaped strings of a text, dashes dropped, upper-cased (a code is read out in any case). */
function codesIn(text: string): string[] {
  return [...text.matchAll(kCodeShaped)].map((m) => m[0].replace(/-/g, '').toUpperCase())
}

/** Whether `value` is one of the code-shaped strings in the person's own words (their request, their answers). */
export function codeFromPerson(value: string, personWords: readonly string[]): boolean {
  const v = value.replace(/[\s-]/g, '').toUpperCase()
  return !v || personWords.some((w) => codesIn(w).includes(v))
}

/** Whether `value` is shaped like a one-time code (4 to 10 letters or digits, at least one digit). */
export function codeShaped(value: string): boolean {
  // "771 204": codes are read out and typed in groups.
  const v = value.replace(/\s+/g, '')
  return codesIn(v).length === 1 && codesIn(v)[0] === v.replace(/-/g, '').toUpperCase()
}

/** Whether the person's own words hold anything shaped like a code: then it is theirs to have typed. */
export function personGaveCode(personWords: readonly string[]): boolean {
  return personWords.some((w) => codesIn(w).length > 0)
}
