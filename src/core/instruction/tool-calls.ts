/**
 * The stream parts of a provider's tool calls, as the AI SDK's providers give them (its
 * LanguageModelV3 stream: `tool-input-start`, `tool-input-delta`, `tool-input-end`, `tool-call`);
 * any other part is none of these.
 */
export interface ToolCallPart {
  type: string
  /** tool-input-*: the call's id; tool-call: `toolCallId`. */
  id?: string
  toolCallId?: string
  toolName?: string
  /** tool-input-delta: a piece of the arguments' JSON text; tool-call: `input`, all of it. */
  delta?: string
  input?: string
}

/**
 * Native tool calls as text the splitter reads (one NDJSON line per call): a call's name is written
 * when it starts, `{"action_type": "<name>", `, and its arguments follow as they stream without
 * their own opening brace, so the arguments' closing brace closes the step: each step runs as soon
 * as its call's arguments are complete (the reader takes fields at the top level). Providers may
 * end the calls' inputs only when the reply ends (the AI SDK's OpenAI-compatible provider does), so
 * nothing waits for that.
 */
export function toolCallText(): (part: ToolCallPart) => string | undefined {
  const calls = new Map<string, { skipped: boolean; any: boolean }>()
  const open = (name: string) => `\n{"action_type": ${JSON.stringify(name)}, `
  /** The arguments' text with their opening brace dropped (white space before it too). */
  const body = (call: { skipped: boolean; any: boolean }, delta: string) => {
    call.any ||= delta.trim() !== ''
    if (call.skipped) return delta
    const at = delta.indexOf('{')
    if (at < 0) return ''
    call.skipped = true
    return delta.slice(at + 1)
  }
  return (part) => {
    const id = part.id ?? ''
    if (part.type === 'tool-input-start') {
      calls.set(id, { skipped: false, any: false })
      return open(part.toolName ?? '')
    }
    if (part.type === 'tool-input-delta') {
      const call = calls.get(id)
      return call ? body(call, part.delta ?? '') : ''
    }
    // A call with no arguments at all still closes.
    if (part.type === 'tool-input-end') return calls.get(id)?.any ? '' : '}\n'
    if (part.type === 'tool-call' && !calls.has(part.toolCallId ?? '')) {
      const call = { skipped: false, any: false }
      calls.set(part.toolCallId ?? '', call)
      const rest = body(call, part.input || '{}')
      return `${open(part.toolName ?? '')}${call.skipped ? rest : '}'}\n`
    }
    return undefined
  }
}
