/**
 * `/extract <JSON Schema> <what to get>` typed in the panel (docs/extraction.md): the schema is
 * the first JSON object after the command, the rest is the request. Read here so the panel and
 * its tests share one reader.
 */
import { parseShape, ShapeError } from './shape'

export interface ExtractCommand {
  shape: Record<string, unknown>
  request: string
}

export function isExtractCommand(text: string): boolean {
  return /^\/extract(\s|$)/i.test(text.trim())
}

/** Throws `ShapeError` when the schema is missing, not JSON, or not a row Ava can extract to. */
export function parseExtractCommand(text: string): ExtractCommand {
  const rest = text.trim().replace(/^\/extract\s*/i, '')
  if (!rest.startsWith('{'))
    throw new ShapeError('Write the schema after /extract: /extract {"type":"object",…} what to get.', '')
  const end = objectEnd(rest)
  if (end < 0) throw new ShapeError('The schema after /extract is not a complete JSON object.', '')
  let shape: Record<string, unknown>
  try {
    shape = JSON.parse(rest.slice(0, end + 1)) as Record<string, unknown>
  } catch (e) {
    throw new ShapeError(`The schema after /extract is not JSON: ${e instanceof Error ? e.message : String(e)}`, '')
  }
  parseShape(shape)
  const request = rest.slice(end + 1).trim()
  if (!request) throw new ShapeError('Say what to get after the schema: /extract {…} every product on this page.', '')
  return { shape, request }
}

/** Where the JSON object that opens `s` closes (braces inside strings do not count), or -1. */
function objectEnd(s: string): number {
  let depth = 0
  let inString = false
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return i
  }
  return -1
}
