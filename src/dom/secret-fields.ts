/**
 * Fields whose value the model never sees: those that ever received a saved secret,
 * and those that hold a password-like value by what they are — a password input, an
 * `autocomplete` token for a password, a one-time code or a card, a name or id such as otp, pin,
 * cvv or passcode, or a text field the page masks with `-webkit-text-security`. The listing
 * (observe/state.ts) and step results (executor/dom.ts shownValue) leave their values out.
 */

/**
 * Elements a secret was typed into, for the life of the page agent: a plain "Verification code"
 * text field that looks like nothing is still redacted after a code went in. Weak, so a removed
 * field is forgotten with the node.
 */
const received = new WeakSet<Element>()

/** When this document first got a secret typed into it (performance.now()), for the screenshot's blackout (marks.ts). */
let secretTypedAt: number | undefined

/** When a secret was first typed in this document, if ever. */
export function firstSecretTypedAt(): number | undefined {
  return secretTypedAt
}

/** Remembers that `el` (and the fields inside it, for a widget wrapping its input) got a secret. */
export function markSecretField(el: Element): void {
  secretTypedAt ??= performance.now()
  received.add(el)
  for (const f of el.querySelectorAll('input, textarea, [contenteditable]')) received.add(f)
}

/** HTML autofill tokens that name a secret: passwords, one-time codes, every card field. */
const kSecretAutocomplete = /(?:^|\s)(?:current-password|new-password|one-time-code|cc-[a-z-]+)(?:\s|$)/i
/**
 * Words in a name or id that say the field holds a secret; camelCase is split before matching.
 * Whole words only, a trailing number allowed ("password2"): "passenger", "spinner", "tangent" and
 * "tokenize" are not secrets. A "password_hint" is kept out too: a hint often gives the password away.
 */
const kSecretWord =
  /(?:^|[^a-z0-9])(?:otp|totp|hotp|mfa|2fa|pin|cvv|cvc|csc|cvv2|passcode|passwd|password|passphrase|pass|pwd|pw|secret|token|tan|ssn|code)\d*(?:[^a-z0-9]|$)/i
/** Codes that are not secrets: an address's, a country's, a discount's. */
const kPublicCode =
  /(?:zip|postal|post|country|area|dial|phone|promo|coupon|discount|voucher|gift|referral|invite|lang|language|currency|region|state|city|product|item|sku)[\s_-]*code/i

function wordsOf(s: string): string {
  return s.replace(/([a-z])([A-Z])/g, '$1 $2')
}

function secretName(s: string | null): boolean {
  if (!s) return false
  const w = wordsOf(s)
  return kSecretWord.test(w) && !kPublicCode.test(w)
}

/**
 * Whether a field's value must stay out of what the model reads. `value` says whether the field
 * holds anything: the computed-style check (a style recalculation) runs only then.
 */
export function holdsSecret(el: Element, value = true): boolean {
  if (received.has(el)) return true
  const tag = el.localName
  if (tag !== 'input' && tag !== 'textarea') return false
  const input = el as HTMLInputElement
  if (tag === 'input' && input.type === 'password') return true
  if (kSecretAutocomplete.test(el.getAttribute('autocomplete') ?? '')) return true
  if (secretName(el.getAttribute('name')) || secretName(el.id)) return true
  if (!value) return false
  const view = el.ownerDocument.defaultView
  const style = view?.getComputedStyle(el)
  // Chrome's masking of a text field ("disc", "circle", "square"); `none` is unmasked.
  const masked = style?.getPropertyValue('-webkit-text-security')
  return !!masked && masked !== 'none'
}

/**
 * Whether sending the form `el` submits (or belongs to) would carry a field a saved secret went
 * into. For a GET form that puts the secret in the address, where history, logs and the Referer
 * of the next page keep it (a secret never goes into a URL).
 */
export function formCarriesSecret(el: Element): boolean {
  const form = el.localName === 'form' ? (el as HTMLFormElement) : ((el as HTMLInputElement).form ?? el.closest('form'))
  if (!form) return false
  return [...form.elements].some((f) => received.has(f) && !!(f as HTMLInputElement).value)
}
