/**
 * The guard's rule on a page's challenge (docs/agent.md, "Taking over"): a one-time code sent to
 * the person is theirs. A step that would type one they did not give is not run — the page goes to
 * them, or, with nobody to hand it to, the step is refused — and a code they gave, in their own
 * words or as a saved secret, the model may type. What is a code field or a CAPTCHA is the page's
 * half (core/page/challenge.ts).
 */
import { instructionKind } from '../vocabulary'
import type { Instruction } from '../instruction/schema'
import { codeFromPerson, codeShaped, personGaveCode, type Challenge } from '../page/challenge'

/** `${secret:NAME}`: a value the person saved in the vault. */
function namesSecret(text: string): boolean {
  return /\$\{secret:[^}]+\}/.test(text)
}

/**
 * "Sign in with code 428913": the code is the person's own words, and the model may type it.
 * So is a saved secret they name (a code kept in the vault): the vault's own rules bind it to its sites.
 */
export function personHasCode(personWords: readonly string[]): boolean {
  return personGaveCode(personWords) || personWords.some(namesSecret)
}

/** An `input` into a code field the page draws, of a value that is not in the person's own words: a code the model made up. */
export function inventsCode(c: Challenge | undefined, ins: Instruction, personWords: readonly string[]): boolean {
  if (!c || c.kind !== 'code' || !instructionKind(ins.action_type)?.types) return false
  const value = ins.params.value ?? ''
  if (namesSecret(value)) return false // the person's saved secret: bound and asked about as any other
  // Into a listed code field, or — named some other way (a selector, words) — a value shaped like a code.
  const intoCode = ins.params.target_id ? c.fields.includes(ins.params.target_id) : codeShaped(value)
  return intoCode && !codeFromPerson(value, personWords)
}
