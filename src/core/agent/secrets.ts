import type { Instruction } from '../instruction/schema'
import { kRedacted, redactShapes, vaultNamesIn } from './redact'

/**
 * Secrets never reach the LLM, the cache, the history or a log. The planner
 * writes `${secret:NAME}`; the background resolves it only in the message to the page. Values
 * typed into password fields are replaced by a placeholder wherever a step is recorded.
 */
export const kSecretRef = /\$\{secret:([A-Za-z0-9_.-]+)\}/g
export { kRedacted }

export function secretNames(value: string): string[] {
  return [...value.matchAll(kSecretRef)].map((m) => m[1])
}

/**
 * The saved secrets the person's own request names: by reference (`${secret:NAME}`) or by writing
 * the value out. A step or a pack action typing one of them on its sites asks no more about it
 * (the one rule for both: step.ts `prepare`, pack-step.ts `askBeforePack`).
 */
export function secretsInRequest(request: string, vault: Readonly<Record<string, string>>): Set<string> {
  return new Set([...secretNames(request), ...vaultNamesIn(request, vault)])
}

export type SecretLookup = (name: string) => string | undefined

/** Resolves `${secret:NAME}` references; unknown names are reported, not sent as text. */
export function resolveSecrets(value: string, lookup: SecretLookup): { value: string; missing: string[] } {
  const missing: string[] = []
  const out = value.replace(kSecretRef, (whole, name: string) => {
    const v = lookup(name)
    if (v === undefined) {
      missing.push(name)
      return whole
    }
    return v
  })
  return { value: out, missing }
}

/** The instruction as it may be stored or shown to the LLM: secret values never appear. */
export function redactInstruction(ins: Instruction, opts: { sensitive: boolean; secrets?: string[] }): Instruction {
  const params = { ...ins.params }
  if (opts.sensitive && params.value !== undefined && !secretNames(params.value).length) params.value = kRedacted
  if (opts.secrets?.length) {
    for (const key of ['value', 'url', 'assertion'] as const) {
      const v = params[key]
      if (typeof v === 'string') params[key] = redactText(v, opts.secrets)
    }
  }
  return { ...ins, params }
}

/**
 * Removes every occurrence of the given secret values from a text, in any shape a page or a model
 * may give one: spaced out, punctuated, case changed, reversed, or a long enough part (redact.ts).
 */
export function redactText(text: string, secrets: string[]): string {
  return redactShapes(text, secrets)
}

/**
 * The site a secret may be typed on is an origin (scheme, host, port), as a password manager
 * binds a login: `bank.com` alone is not `evil.com/bank.com`, nor `http://bank.com`, nor
 * `login.bank.com`. Null for what is not an http(s) address.
 */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null
  } catch {
    return null
  }
}

/** A site as the person writes it in Options ("bank.com", "https://bank.com/login") → its origin; https when no scheme is given. */
export function siteOrigin(input: string): string | null {
  const s = input.trim()
  if (!s) return null
  return originOf(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`)
}

/** The confirmation a secret the person did not name asks: it names the secrets and the site. */
export function secretQuestion(names: string[], origin: string): string {
  const list = [...new Set(names)].join(', ')
  return `Type the saved secret ${list} into a field on ${origin}? You did not name it in your request: the model or the page asked for it`
}
