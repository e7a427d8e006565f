import type { Instruction } from '../instruction/schema'

/**
 * Secrets never reach the LLM, the cache, the history or a log (issue 6 safety). The planner
 * writes `${secret:NAME}`; the background resolves it only in the message to the page. Values
 * typed into password fields are replaced by a placeholder wherever a step is recorded.
 */
export const kSecretRef = /\$\{secret:([A-Za-z0-9_.-]+)\}/g
export const kRedacted = '[redacted]'

export function secretNames(value: string): string[] {
  return [...value.matchAll(kSecretRef)].map((m) => m[1])
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

/** Removes any occurrence of the given secret values from a text. */
export function redactText(text: string, secrets: string[]): string {
  let out = text
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join(kRedacted)
  return out
}
