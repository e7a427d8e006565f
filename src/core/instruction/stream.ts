/**
 * Splits a streamed LLM reply into the complete elements of its first top-level JSON array, as
 * soon as each element's closing brace has arrived, so the page can run step 1 while step 2 is
 * still being generated (issue 2: "executed as soon as it has fully arrived").
 *
 * The reply may wrap the array in a ```json fence or put a sentence before it (models do, whatever
 * the prompt says); text outside the array is handed back as `prose`, character for character, so
 * the panel shows Markdown whole: links, brackets and code fences included (issue 17 §2). The
 * splitter only tracks nesting and string state; it never parses values, the schema does that.
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

/**
 * Where the instruction array opened at `s[i]` starts (the index of its `[`), 'no' if the text there
 * opens none, or 'wait' if only more text can tell. Evidence that holds, never a `[` inside prose:
 * at the start of the reply, `[` then `{` or `]` (instructions, or none), bare or in a ``` or
 * ```json fence; after prose (models write "Here is the plan:" first), a line outside any code
 * block that opens with `[` then `{`, or with a ```json fence opening such an array. A Markdown
 * link is `[` then text, so it never qualifies.
 */
function opensArray(s: string, i: number, atStart: boolean): number | 'no' | 'wait' {
  const space = atStart ? /\s/ : /[ \t]/
  let fenced = false
  while (i < s.length && space.test(s[i])) i++
  if (i === s.length) return 'wait'
  if (s[i] === '`') {
    const nl = s.indexOf('\n', i)
    const fence = /^(`{1,3})([A-Za-z]*)([ \t\r]*)$/.exec(nl < 0 ? s.slice(i) : s.slice(i, nl))
    if (!fence) return 'no'
    const [, ticks, info, trail] = fence
    const lang = info.toLowerCase()
    const ok = lang === 'json' || (atStart && lang === '')
    if (nl < 0) {
      // A fence line still arriving: wait while it can still become ```json (or ``` at the start).
      if (ticks.length < 3) return info === '' ? 'wait' : 'no'
      return ok || (!trail && 'json'.startsWith(lang)) ? 'wait' : 'no'
    }
    if (ticks.length < 3 || !ok) return 'no'
    for (i = nl + 1; i < s.length && /\s/.test(s[i]); i++);
    if (i === s.length) return 'wait'
    fenced = true
  }
  if (s[i] !== '[') return 'no'
  let k = i + 1
  while (k < s.length && /\s/.test(s[k])) k++
  if (k === s.length) return 'wait'
  return s[k] === '{' || (s[k] === ']' && (atStart || fenced)) ? i : 'no'
}

/** A Markdown code fence line: its marker (``` or ~~~, any longer run) and the rest of the line. */
const kFenceLine = /^ {0,3}(`{3,}|~{3,})(.*)$/

export function createInstructionSplitter(events: StreamEvents): InstructionSplitter {
  // prose → array → (close: the array's fence, if it had one) → after: prose again, to the end.
  let state: 'prose' | 'array' | 'close' | 'after' = 'prose'
  let atStart = true // nothing but white space so far: the reply may still open with an array
  let held = '' // prose not handed on yet: a line that may open an array, or the array's closing fence
  let partial = '' // the start of the current line, handed on already ('' when held begins a line)
  let code: string | null = null // the fence of the prose's open code block: no instructions in there
  let fenced = false
  let depth = 0 // nesting inside the current element; 0 = between elements
  let inString = false
  let escaped = false
  let current = ''
  let index = 0
  let sawArray = false
  let stopped = false

  const say = (t: string) => {
    if (t && !stopped) events.prose(t)
  }

  function feed(text: string): void {
    if (stopped || !text) return
    if (state === 'after') return say(text)
    if (state === 'array') {
      const rest = scanArray(text)
      if (rest === null) return
      state = fenced ? 'close' : 'after'
      return feed(rest)
    }
    held += text
    if (state === 'close') return closeFence(false)
    scanProse()
  }

  function openArray(at: number): void {
    const rest = held.slice(at + 1)
    held = ''
    state = 'array'
    sawArray = true
    feed(rest)
  }

  /** Follows the prose's code blocks, one complete line at a time (CommonMark fences, simplified). */
  function endLine(line: string): void {
    const m = kFenceLine.exec(line.replace(/\r?\n$/, ''))
    if (!m) return
    if (code === null) {
      if (m[1][0] === '~' || !m[2].includes('`')) code = m[1]
    } else if (m[1][0] === code[0] && m[1].length >= code.length && m[2].trim() === '') code = null
  }

  /** Hands on held prose up to the first line that may still open an array. */
  function scanProse(): void {
    if (atStart) {
      const r = opensArray(held, 0, true)
      if (r === 'wait') return
      atStart = false
      if (r !== 'no') {
        fenced = held.slice(0, r).includes('`')
        return openArray(r) // white space before the array is no prose
      }
    }
    let i = 0
    if (partial) {
      const nl = held.indexOf('\n')
      if (nl < 0) {
        partial += held
        say(held)
        held = ''
        return
      }
      endLine(partial + held.slice(0, nl + 1))
      partial = ''
      i = nl + 1
    }
    for (;;) {
      const r = code === null ? opensArray(held, i, false) : 'no'
      if (r === 'wait') {
        say(held.slice(0, i))
        held = held.slice(i)
        return
      }
      if (r !== 'no') {
        say(held.slice(0, i))
        fenced = held.slice(i, r).includes('`')
        return openArray(r)
      }
      const nl = held.indexOf('\n', i)
      if (nl < 0) {
        partial = held.slice(i)
        say(held)
        held = ''
        return
      }
      endLine(held.slice(i, nl + 1))
      i = nl + 1
    }
  }

  /** Drops the line that closes the array's fence; what follows it is prose. */
  function closeFence(final: boolean): void {
    const t = held.trimStart()
    if (t.startsWith('```')) {
      const nl = t.indexOf('\n')
      if (nl < 0 && !final) return
      held = ''
      state = 'after'
      return say(nl < 0 ? '' : t.slice(nl + 1))
    }
    if (!final && '``'.startsWith(t)) return // white space, or the fence still arriving
    state = 'after'
    const all = held
    held = ''
    say(final && !t ? '' : all)
  }

  /** Scans inside the array; returns the text after its closing `]`, or null while it is open. */
  function scanArray(chunk: string): string | null {
    for (let i = 0; i < chunk.length && !stopped; i++) {
      const c = chunk[i]
      if (depth === 0) {
        if (c === ']') return chunk.slice(i + 1)
        if (c === '{' || c === '[') {
          depth = 1
          current = c
        } else if (c === '"') {
          // A bare string element: keep it so the schema can reject it with its text.
          depth = 1
          current = c
          inString = true
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
    return null
  }

  function end() {
    if (stopped) return { truncated: null, sawArray }
    if (state === 'close') closeFence(true)
    else if (state === 'prose') say(held) // a line that never opened an array is prose after all
    held = ''
    const truncated = state === 'array' && depth > 0 ? current : null
    return { truncated, sawArray }
  }

  return {
    push: feed,
    end,
    stop: () => void (stopped = true),
  }
}
