/**
 * The answer as the person and every door are shown it (docs/security.md, "One redactor for every
 * way out"): the model's words arrive piece by piece, and a secret it echoes (a vault value, a code
 * typed this run, read back off a page) may be split across pieces or written spaced out, reversed
 * or in look-alike letters. So the whole text so far is redacted again with each piece (redact.ts),
 * and what was shown is extended when the redacted text only grew, or replaced when a shape was
 * recognised only now. What a door returns (the panel's message, an MCP result, `ava mcp`'s
 * answer) is that message: it never holds the raw words.
 */
import { redactText } from './secrets'

/** The next text to show: `append` to what is shown, or `replace` it whole. */
export type ShownAnswer = { append: string } | { replace: string }

export function shownAnswer(shown: string, raw: string, hidden: readonly string[]): ShownAnswer {
  const now = hidden.length ? redactText(raw, [...hidden]) : raw
  return now.startsWith(shown) ? { append: now.slice(shown.length) } : { replace: now }
}
