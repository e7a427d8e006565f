/**
 * Where `JSON.parse` gave up in `text`, as a person counts (line and column from 1), read from
 * the position its message names; text that ended too early is at its end. Null when the message
 * names no place (the engine quoted the text instead).
 */
export function jsonErrorAt(text: string, reason: string): { line: number; column: number } | null {
  const named = /position (\d+)/.exec(reason)
  const at = named ? Math.min(Number(named[1]), text.length) : /end of (JSON|data)/i.test(reason) ? text.length : null
  if (at === null) return null
  const before = text.slice(0, at).split('\n')
  return { line: before.length, column: before.at(-1)!.length + 1 }
}
