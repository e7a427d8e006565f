/**
 * Splits a streamed LLM reply into the complete elements of its first top-level JSON array, as
 * soon as each element's closing brace has arrived, so the page can run step 1 while step 2 is
 * still being generated (issue 2: "executed as soon as it has fully arrived").
 *
 * The reply may wrap the array in prose or a ```json fence (models do, whatever the prompt says);
 * text outside the array is handed back as `prose` so the panel can show it. The splitter only
 * tracks nesting and string state; it never parses values, which the schema does afterwards.
 */
export interface StreamEvents {
  /** Text outside the instruction array, in arrival order. */
  prose(text: string): void
  /** The complete JSON text of one array element. */
  element(raw: string, index: number): void
}

export interface InstructionSplitter {
  push(chunk: string): void
  /** Ignores the rest of the stream, from inside an `element` call too: nothing more is scanned or reported. */
  stop(): void
  /** Call at the end of the stream. Returns the unfinished element's text, if the stream was cut inside one. */
  end(): { truncated: string | null; sawArray: boolean }
}

// A fence line such as ```json is presentation, not prose; we drop it from the prose stream.
const kFence = /```[a-zA-Z]*\s*/g

export function createInstructionSplitter(events: StreamEvents): InstructionSplitter {
  let state: 'before' | 'array' | 'after' = 'before'
  let depth = 0 // nesting inside the current element; 0 = between elements
  let inString = false
  let escaped = false
  let current = ''
  let index = 0
  let sawArray = false
  let proseBuf = ''
  let stopped = false

  const flushProse = () => {
    const t = proseBuf.replace(kFence, '')
    proseBuf = ''
    if (t) events.prose(t)
  }

  function push(chunk: string): void {
    let proseStart = -1
    for (let i = 0; i < chunk.length && !stopped; i++) {
      const c = chunk[i]
      if (state !== 'array') {
        if (state === 'before' && c === '[') {
          if (proseStart >= 0) proseBuf += chunk.slice(proseStart, i)
          proseStart = -1
          flushProse()
          state = 'array'
          sawArray = true
          continue
        }
        if (proseStart < 0) proseStart = i
        continue
      }
      // Inside the array.
      if (depth === 0) {
        if (c === ']') {
          state = 'after'
          continue
        }
        if (c === '{' || c === '[') {
          depth = 1
          current = c
          continue
        }
        if (c === '"') {
          // A bare string element: keep it so the schema can reject it with its text.
          depth = 1
          current = c
          inString = true
          continue
        }
        continue // commas, whitespace, stray tokens between elements
      }
      current += c
      if (inString) {
        if (escaped) escaped = false
        else if (c === '\\') escaped = true
        else if (c === '"') {
          inString = false
          if (depth === 1 && current[0] === '"') {
            depth = 0
            events.element(current, index++)
            current = ''
          }
        }
        continue
      }
      if (c === '"') inString = true
      else if (c === '{' || c === '[') depth++
      else if (c === '}' || c === ']') {
        depth--
        if (depth === 0) {
          events.element(current, index++)
          current = ''
        }
      }
    }
    if (proseStart >= 0 && !stopped) {
      proseBuf += chunk.slice(proseStart)
      // Hold back a possible half-received fence marker; flush the rest now so text streams.
      const cut = proseBuf.lastIndexOf('`')
      if (cut >= 0 && cut >= proseBuf.length - 8) {
        const keep = proseBuf.slice(cut)
        proseBuf = proseBuf.slice(0, cut)
        flushProse()
        proseBuf = keep
      } else flushProse()
    }
  }

  function end() {
    if (stopped) return { truncated: null, sawArray }
    flushProse()
    const truncated = state === 'array' && depth > 0 ? current : null
    return { truncated, sawArray }
  }

  return {
    push,
    end,
    stop: () => void (stopped = true),
  }
}
