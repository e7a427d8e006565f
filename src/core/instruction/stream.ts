/**
 * Splits a streamed LLM reply into the JSON texts of its instructions, as soon as each one's
 * closing brace has arrived, so the page can run step 1 while step 2 is still being generated
 * ("executed as soon as it has fully arrived"), whatever shape the model wrote the plan in
 * (docs/instruction-schema.md, "What Ava reads"):
 *
 * - the array of instructions, bare, in a ```json fence, or on a line after a sentence;
 * - an object wrapping it (`{"steps": [...]}`, `{"instructions"|"plan"|"actions"|"action": …}`,
 *   what providers' JSON modes force), nested wrappers and commentary keys included;
 * - one instruction object, or one per line (NDJSON);
 * - a JSON string holding any of these;
 * - JSON with comments, trailing commas or single quotes (the text is handed on as written: the
 *   reader in read.ts repairs and maps it).
 *
 * A reasoning block at the start (`<think>…</think>`, `<thinking>…</thinking>`) goes to `thinking`,
 * never to the answer. Text outside the instructions is handed back as `prose`, character for
 * character, so the panel shows Markdown whole: links, brackets and code fences included; an object
 * that turns out to hold no instruction (a ```json example in an answer) is prose too. The splitter
 * only tracks nesting, strings, comments and keys; it never parses values.
 */
import { kInstructionNames } from '../vocabulary'
import {
  kActionWords,
  kCallKeys,
  kTemplateMarkers,
  kTypeKeys as kTypeKeyList,
  kWrapperKeys as kWrapperKeyList,
} from './dialects'

export interface StreamEvents {
  /** Text outside the instructions, in arrival order. */
  prose(text: string): void
  /** The complete JSON text of one instruction (or of what stands where one should). */
  element(raw: string, index: number): void
  /** The model's reasoning, written before its answer. */
  thinking?(text: string): void
  /**
   * The prose handed on so far was reasoning after all: a `</think>` arrived with no opening tag
   * (DeepSeek-R1 and Qwen3's thinking models, whose chat template writes `<think>` into the prompt).
   * `text` is that reasoning; prose from here on is the answer.
   */
  wasThinking?(text: string): void
}

export interface SplitterOptions {
  /**
   * The model is known to answer after a `</think>` whose opening tag its template wrote
   * (`thinksFirst` in src/core/providers.ts): everything up to that tag is reasoning, and no
   * instruction in it runs. A reply that never closes it is read whole as the answer at the end.
   */
  thinksFirst?: boolean
}

export interface InstructionSplitter {
  push(chunk: string): void
  /** Ignores the rest of the stream, from inside an `element` call too: nothing more is scanned or reported. */
  stop(): void
  /** Call at the end of the stream. Returns the unfinished element's text, if the stream was cut inside one. */
  end(): { truncated: string | null; sawArray: boolean }
}

const bareKey = (k: string) => k.replace(/[-_\s]/g, '').toLowerCase()
/** Keys whose container value holds the steps (compared after dropping case, `_` and `-`; dialects.ts). */
const kWrapperKeys = new Set(kWrapperKeyList.map(bareKey))
/** Keys that make an object one instruction (the reader knows the words they may hold). */
const kTypeKeys = new Set([...kTypeKeyList, ...kCallKeys].map(bareKey))
/** Every word for an action, Ava's and the dialects': an object whose one key is one is a step (`{"go_to_url": {…}}`). */
const kWords = new Set([...kInstructionNames, ...kActionWords.keys()].map(bareKey))

type Opening = { at: number; kind: '[' | '{' | '"' | 'yaml' }
/** Fences whose body is read as instructions: JSON and its lenient kin, and YAML (read line by line). */
const kJsonFences = new Set(['json', 'json5', 'jsonc'])
const kYamlFences = new Set(['yaml', 'yml'])

/**
 * Where the instructions opened at `s[i]` start, 'no' if the text there opens none, or 'wait' if
 * only more text can tell. Evidence that holds, never a bracket inside prose: at the start of the
 * reply, `[` then `{` or `]` (instructions, or none), `{` then a quoted key, or `"` then `[` or `{`
 * (a JSON string holding them), bare or in a ``` or ```json fence; after prose (models write "Here
 * is the plan:" first), a line outside any code block that opens with `[` then `{` or with `{` then
 * a quoted key, or a ```json fence opening either. A Markdown link is `[` then text, so it never
 * qualifies; an object that holds no instruction is handed back as prose when it closes.
 */
function opens(s: string, i: number, atStart: boolean): Opening | 'no' | 'wait' {
  const space = atStart ? /\s/ : /[ \t]/
  let fenced = false
  while (i < s.length && space.test(s[i])) i++
  if (i === s.length) return 'wait'
  if (s[i] === '`') {
    const nl = s.indexOf('\n', i)
    const fence = /^(`{1,3})([A-Za-z][A-Za-z0-9]*|)([ \t\r]*)$/.exec(nl < 0 ? s.slice(i) : s.slice(i, nl))
    if (!fence) return 'no'
    const [, ticks, info, trail] = fence
    const lang = info.toLowerCase()
    const ok = kJsonFences.has(lang) || kYamlFences.has(lang) || (atStart && lang === '')
    if (nl < 0) {
      // A fence line still arriving: wait while it can still become ```json (or ``` at the start).
      if (ticks.length < 3) return info === '' ? 'wait' : 'no'
      return ok || (!trail && [...kJsonFences, ...kYamlFences].some((f) => f.startsWith(lang))) ? 'wait' : 'no'
    }
    if (ticks.length < 3 || !ok) return 'no'
    // A YAML block opens at its first line; its items are read line by line.
    if (kYamlFences.has(lang)) return { at: nl + 1, kind: 'yaml' }
    for (i = nl + 1; i < s.length && /\s/.test(s[i]); i++);
    if (i === s.length) return 'wait'
    fenced = true
  }
  const c = s[i]
  if (c !== '[' && c !== '{' && !(c === '"' && atStart && !fenced)) return 'no'
  let k = i + 1
  for (;;) {
    while (k < s.length && /\s/.test(s[k])) k++
    // JSON with comments (`[ // the plan`): look past them.
    if (s[k] !== '/' || c === '"') break
    if (k + 1 === s.length) return 'wait'
    const close = s[k + 1] === '/' ? '\n' : s[k + 1] === '*' ? '*/' : null
    if (close === null) return 'no'
    const e = s.indexOf(close, k + 2)
    if (e < 0) return 'wait'
    k = e + close.length
  }
  if (k === s.length) return 'wait'
  const n = s[k]
  if (c === '[') return n === '{' || (n === ']' && (atStart || fenced)) ? { at: i, kind: '[' } : 'no'
  // In a fence, JSON5's bare keys (`{action: 'click'}`) too.
  if (c === '{') return n === '"' || n === "'" || (fenced && /[A-Za-z_$]/.test(n ?? '')) ? { at: i, kind: '{' } : 'no'
  return n === '[' || n === '{' ? { at: i, kind: '"' } : 'no'
}

/** A Markdown code fence line: its marker (``` or ~~~, any longer run) and the rest of the line. */
const kFenceLine = /^ {0,3}(`{3,}|~{3,})(.*)$/

const kLoneClose = /<\/think(?:ing)?>/i
const kLongestClose = '</thinking>'.length
const kOpenTag = /^\s*<think(?:ing)?>/i

/**
 * The splitter, with a watch for a reasoning block that lost its opening tag: while the reply has
 * opened no instructions yet, a `</think>` (or `</thinking>`) outside any JSON turns everything
 * before it into reasoning — the prose already handed on is taken back through `wasThinking`, and
 * the answer is split afresh from after the tag. With `thinksFirst` nothing is handed on as prose or
 * instructions before the tag at all, so a plan drafted in the reasoning never runs.
 */
export function createInstructionSplitter(events: StreamEvents, opts: SplitterOptions = {}): InstructionSplitter {
  const inner = createReasoningSplitter(events, opts)
  const markers = createMarkerFilter((t) => inner.push(t))
  return {
    push: (chunk) => markers.push(chunk),
    stop: () => inner.stop(),
    end() {
      markers.end()
      return inner.end()
    },
  }
}

/**
 * Rewrites chat-template markers a server passed through raw (dialects.ts `kTemplateMarkers`) into
 * what they stand for, however the stream cuts them: a marker's start is held until it is known
 * to be one or not.
 */
export function createMarkerFilter(out: (text: string) => void): { push(chunk: string): void; end(): void } {
  let pending = ''
  let open: 'think' | 'call' | null = null
  let header: { marker: (typeof kTemplateMarkers)[number]; from: number } | null = null
  const send = (t: string) => void (t && out(t))
  function scan(final: boolean): void {
    for (;;) {
      if (header) {
        const end = pending.indexOf(header.marker.until!, header.from)
        if (end < 0) {
          if (final) {
            send(pending)
            pending = ''
          }
          return
        }
        const m = header.marker
        const opened = m.call?.(pending.slice(0, end))
        send(opened ?? m.becomes)
        if (opened !== undefined && m.opens) open = m.opens
        pending = pending.slice(end + m.until!.length)
        header = null
        continue
      }
      let at = -1
      let hit: (typeof kTemplateMarkers)[number] | undefined
      for (const m of kTemplateMarkers) {
        const k = pending.indexOf(m.marker)
        if (k >= 0 && (at < 0 || k < at)) {
          at = k
          hit = m
        }
      }
      if (!hit) {
        // Hold back what may be the start of a marker.
        let keep = 0
        if (!final) {
          for (let n = Math.min(pending.length, 48); n > 0 && !keep; n--) {
            const tail = pending.slice(-n)
            if (kTemplateMarkers.some((m) => m.marker.startsWith(tail))) keep = n
          }
        }
        send(pending.slice(0, pending.length - keep))
        pending = pending.slice(pending.length - keep)
        return
      }
      send(pending.slice(0, at))
      pending = pending.slice(at + hit.marker.length)
      if (hit.until) {
        header = { marker: hit, from: 0 }
        continue
      }
      const ending = open ? hit.ends?.[open] : undefined
      if (ending !== undefined) {
        send(ending)
        open = null
      } else {
        send(hit.becomes)
        if (hit.opens) open = hit.opens
      }
    }
  }
  return {
    push(chunk) {
      pending += chunk
      scan(false)
    },
    end() {
      scan(true)
      if (open === 'call') out('}\n')
      open = null
    },
  }
}

/** The splitter, after the markers: see `createInstructionSplitter`. */
function createReasoningSplitter(events: StreamEvents, opts: SplitterOptions): InstructionSplitter {
  let current = splitAnswer(events)
  let watching = true
  let seen = '' // the reply so far, while watching
  let passed = 0 // how much of `seen` the splitter has been given
  let held = !!opts.thinksFirst
  let trimming = false
  let shown = -1 // with thinksFirst: how much of `seen` went to `thinking` (-1: not known yet whether it opens with a tag)

  function closed(at: number, tagLength: number): void {
    const reasoning = shown >= 0 ? seen.slice(shown, at) : seen.slice(0, at).replace(kOpenTag, '')
    watching = false
    current.stop()
    if (held) events.thinking?.(reasoning)
    else events.wasThinking?.(reasoning)
    held = false
    current = splitAnswer(events)
    trimming = true
    answer(seen.slice(at + tagLength))
  }

  /** The answer after the reasoning, without the blank lines that open it. */
  function answer(text: string): void {
    if (trimming) {
      text = text.replace(/^\s+/, '')
      if (!text) return
      trimming = false
    }
    current.push(text)
  }

  /** thinksFirst: shows the reasoning as it comes, holding back what may be the start of the tag. */
  function showHeld(): void {
    if (shown < 0) {
      // The block may still open with its own tag (some servers write it in the answer).
      const t = seen.trimStart()
      const tag = kOpenTag.exec(seen)
      if (!tag && (t === '' || ['<think>', '<thinking>'].some((x) => x.startsWith(t.toLowerCase())))) return
      shown = tag ? tag[0].length : 0
    }
    const safe = seen.length - (kLongestClose - 1)
    if (safe > shown) {
      events.thinking?.(seen.slice(shown, safe))
      shown = safe
    }
  }

  return {
    push(chunk) {
      if (!watching) return answer(chunk)
      const from = Math.max(0, seen.length - kLongestClose)
      seen += chunk
      const m = kLoneClose.exec(seen.slice(from))
      if (held) return m ? closed(from + m.index, m[0].length) : showHeld()
      if (m) {
        const at = from + m.index
        // Hand on the text before the tag: if it opened instructions, the tag is inside them.
        if (at > passed) current.push(seen.slice(passed, at))
        passed = Math.max(passed, at)
        if (current.pristine()) return closed(at, m[0].length)
      }
      current.push(seen.slice(passed))
      passed = seen.length
      if (!current.pristine()) watching = false
    },
    stop: () => current.stop(),
    end() {
      if (held) {
        // No closing tag came: the model did not think after all, and all of it is the answer.
        held = false
        current.push(seen)
      }
      return current.end()
    },
  }
}

/** One open container in the instructions' JSON; `start` is its offset in the value's text. */
interface Frame {
  open: '{' | '['
  start: number
  /** list: its elements are instructions; maybe: an instruction, or a wrapper of them; plain: inside one. */
  role: 'list' | 'maybe' | 'plain'
  emitted: number
  /** Objects: the key whose value comes next, and whether a type key was seen. */
  key: string
  typed: boolean
  expectKey: boolean
  parentList: boolean
  /** How many keys it has, and whether one is an action's word (`{"go_to_url": {…}}` is a step if it is the only one). */
  keys: number
  keyed: boolean
  /** A type key's value is a known action word (an object inside a sentence must have one to be a step). */
  worded: boolean
}

/** The splitter proper; `pristine`: nothing read so far opened instructions or a reasoning block. */
function splitAnswer(events: StreamEvents): InstructionSplitter & { pristine(): boolean } {
  // think → prose → json → (close: the fence, if it had one) → between (NDJSON) → after: prose to the end.
  let state: 'think' | 'prose' | 'json' | 'quoted' | 'yaml' | 'close' | 'between' | 'after' = 'think'
  let inline = false // the value opened inside a line of prose: a step only with a known action word
  let yaml = { lines: [] as string[], indent: -1, line: '' } // a ```yaml block: its lines so far, the items' indent
  let atStart = true // nothing but white space so far: the reply may still open with instructions
  let held = '' // text not handed on yet
  let partial = '' // the start of the current line, handed on already ('' when held begins a line)
  let code: string | null = null // the fence of the prose's open code block: no instructions in there
  let fenced = false
  let opener = '' // what came before the value on its line (a fence), said if the value is prose after all
  let buf = '' // the current top-level value's text
  let stack: Frame[] = []
  let inString: '"' | "'" | null = null
  let escaped = false
  let comment: 'line' | 'block' | null = null
  let token = '' // the string or bare word being read where a key may stand
  let index = 0
  let sawArray = false
  let sawBefore = false // sawArray before this value, again if the value is prose after all
  let valueEmitted = 0
  let stopped = false
  let opened = false // a value has been opened (instructions, or what may be)
  // A JSON string holding the plan: its decoded text feeds an inner splitter.
  let inner: InstructionSplitter | null = null
  let innerProse = ''
  let innerEmitted = 0
  let quotedRaw = ''
  let escape = ''

  const say = (t: string) => {
    if (t && !stopped) events.prose(t)
  }
  const emit = (raw: string) => {
    if (stopped) return
    valueEmitted++
    for (const f of stack) f.emitted++
    events.element(raw, index++)
  }

  function feed(text: string): void {
    if (stopped || !text) return
    switch (state) {
      case 'think':
        held += text
        return scanThink()
      case 'after':
        return say(text)
      case 'yaml':
        return scanYaml(text)
      case 'json': {
        if (held) {
          text = held + text // a `/` that may open a comment
          held = ''
        }
        const rest = scanValue(text)
        if (rest === null) return
        return feed(rest)
      }
      case 'quoted': {
        const rest = scanQuoted(text)
        if (rest === null) return
        return afterValue(rest, true)
      }
      case 'between':
        held += text
        return between(false)
      case 'close':
        held += text
        return closeFence(false)
      default:
        held += text
        scanProse()
    }
  }

  /** A reasoning block the reply opens with goes to `thinking`; the answer starts after it. */
  let closeTag = ''
  function scanThink(): void {
    if (!closeTag) {
      const t = held.trimStart()
      const m = /^<(think|thinking)>/i.exec(t)
      if (!m) {
        if (t === '' || ['<think>', '<thinking>'].some((tag) => tag.startsWith(t.toLowerCase()))) return
        state = 'prose'
        const all = held
        held = ''
        return feed(all)
      }
      closeTag = `</${m[1].toLowerCase()}>`
      held = t.slice(m[0].length)
    }
    const end = held.toLowerCase().indexOf(closeTag)
    if (end < 0) {
      // Hold back what may be the start of the closing tag.
      let keep = 0
      for (let n = Math.min(closeTag.length - 1, held.length); n > 0; n--) {
        if (closeTag.startsWith(held.slice(-n).toLowerCase())) {
          keep = n
          break
        }
      }
      const out = held.slice(0, held.length - keep)
      held = held.slice(held.length - keep)
      if (out && !stopped) events.thinking?.(out)
      return
    }
    if (end > 0 && !stopped) events.thinking?.(held.slice(0, end))
    const rest = held.slice(end + closeTag.length).replace(/^\s+/, '')
    held = ''
    state = 'prose'
    feed(rest)
  }

  function openValue(o: Opening, from: number, within = false): void {
    opened = true
    inline = within
    opener = held.slice(from, o.at)
    fenced = opener.includes('`')
    if (o.kind === 'yaml') {
      const rest = held.slice(o.at)
      held = ''
      sawBefore = sawArray
      yaml = { lines: [], indent: -1, line: '' }
      state = 'yaml'
      return feed(rest)
    }
    const rest = held.slice(o.at + 1)
    held = ''
    sawBefore = sawArray
    sawArray = true
    startValue(o.kind)
    feed(rest)
  }

  /**
   * What follows a value: prose again, where another block or object may open (several fenced
   * blocks, one per step, and objects between sentences). `midLine`: the value ended inside a line.
   */
  function afterValue(rest: string, midLine: boolean): void {
    state = 'prose'
    atStart = false
    partial = midLine ? '}' : ''
    held = ''
    feed(rest)
  }

  /**
   * A ```yaml block, one complete line at a time: a list item (`- action: click`) is handed on,
   * dedented into a mapping, when the next item at its indent begins or the fence closes; a block
   * with no list is one step. The reader parses each item's YAML (read.ts).
   */
  function scanYaml(text: string): void {
    yaml.line += text
    for (let nl = yaml.line.indexOf('\n'); nl >= 0 && !stopped; nl = yaml.line.indexOf('\n')) {
      const line = yaml.line.slice(0, nl).replace(/\r$/, '')
      yaml.line = yaml.line.slice(nl + 1)
      if (/^ {0,3}(`{3,}|~{3,})\s*$/.test(line)) {
        yamlItem(true)
        const rest = yaml.line
        yaml.line = ''
        return afterValue(rest, false)
      }
      const item = /^(\s*)- /.exec(line)
      if (item && (yaml.indent < 0 || item[1].length === yaml.indent)) {
        if (yaml.indent >= 0) yamlItem(false)
        else yaml.lines = [] // the wrapper's key (`steps:`) is no step
        yaml.indent = item[1].length
        yaml.lines.push(`${item[1]}  ${line.slice(item[0].length)}`)
      } else yaml.lines.push(line)
    }
  }

  function yamlItem(last: boolean): void {
    const lines = yaml.lines.filter((l) => l.trim() && !l.trim().startsWith('#'))
    yaml.lines = []
    if (!lines.length || (last && yaml.indent < 0 && !lines.some((l) => /^\s*[\w-]+\s*:/.test(l)))) return
    const cut = Math.min(...lines.map((l) => /^\s*/.exec(l)![0].length))
    sawArray = true
    valueEmitted++
    events.element(lines.map((l) => l.slice(cut)).join('\n'), index++)
  }

  function startValue(kind: '[' | '{' | '"'): void {
    valueEmitted = 0
    if (kind === '"') {
      state = 'quoted'
      quotedRaw = '"'
      innerProse = ''
      innerEmitted = 0
      inner = splitAnswer({
        prose: (t) => (innerProse += t),
        element: (raw) => {
          innerEmitted++
          events.element(raw, index++)
        },
      })
      return
    }
    state = 'json'
    buf = kind
    stack = [
      {
        open: kind,
        start: 0,
        role: kind === '[' ? 'list' : 'maybe',
        emitted: 0,
        key: '',
        typed: false,
        expectKey: kind === '{',
        parentList: false,
        keys: 0,
        keyed: false,
        worded: false,
      },
    ]
  }

  /** Follows the prose's code blocks, one complete line at a time (CommonMark fences, simplified). */
  function endLine(line: string): void {
    const m = kFenceLine.exec(line.replace(/\r?\n$/, ''))
    if (!m) return
    if (code === null) {
      if (m[1][0] === '~' || !m[2].includes('`')) code = m[1]
    } else if (m[1][0] === code[0] && m[1].length >= code.length && m[2].trim() === '') code = null
  }

  /** Hands on held prose up to the first line that may still open instructions. */
  function scanProse(): void {
    if (atStart) {
      const r = opens(held, 0, true)
      if (r === 'wait') return
      atStart = false
      if (r !== 'no') return openValue(r, 0) // white space before the value is no prose
    }
    let i = 0
    if (partial) {
      const nl = held.indexOf('\n')
      if (inlineIn(partial, 0, nl < 0 ? held.length : nl)) return
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
      const r = code === null ? opens(held, i, false) : 'no'
      if (r === 'wait') {
        say(held.slice(0, i))
        held = held.slice(i)
        return
      }
      if (r !== 'no') {
        say(held.slice(0, i))
        return openValue(r, i)
      }
      const nl = held.indexOf('\n', i)
      if (inlineIn('', i, nl < 0 ? held.length : nl)) return
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

  /**
   * An object opening inside a line of prose, outside inline code and code blocks (`I will click
   * it: {"action": "click", "index": 3}`): opened (true), or the text up to a `{` whose next
   * character has not come yet is handed on and the rest held (true); false when the line has none.
   * Such an object is a step only if its type key holds a known action word (close()).
   */
  function inlineIn(before: string, from: number, to: number): boolean {
    if (
      code !== null ||
      kFenceLine.test(before + held.slice(from, to)) ||
      /^( {4}|\t)/.test(before || held.slice(from, to))
    )
      return false
    let ticks = (before.match(/`/g) ?? []).length
    for (let k = from; k < to; k++) {
      const c = held[k]
      if (c === '`') ticks++
      if (c !== '{' || ticks % 2) continue
      let j = k + 1
      while (j < to && (held[j] === ' ' || held[j] === '\t')) j++
      if (j === to && to === held.length) {
        say(held.slice(0, k))
        partial = before + held.slice(from, k) || ' '
        held = held.slice(k)
        return true
      }
      if (held[j] === '"' || held[j] === "'") {
        say(held.slice(0, k))
        partial = ''
        openValue({ at: k, kind: '{' }, k, true)
        return true
      }
    }
    return false
  }

  /** Drops the line that closes the value's fence; what follows it is prose. */
  function closeFence(final: boolean): void {
    const t = held.trimStart()
    if (t.startsWith('```')) {
      const nl = t.indexOf('\n')
      if (nl < 0 && !final) return
      held = ''
      return afterValue(nl < 0 ? '' : t.slice(nl + 1), false)
    }
    if (!final && '``'.startsWith(t)) return // white space, or the fence still arriving
    const all = held
    held = ''
    if (final) return say(t ? all : '')
    afterValue(all, false)
  }

  /** After an instruction object: another one may follow (NDJSON), else the rest is prose. */
  function between(final: boolean): void {
    const t = held.replace(/^[\s,]+/, '')
    if (!t) {
      if (final) held = ''
      return
    }
    if (t[0] === '{') {
      held = ''
      startValue('{')
      return feed(t.slice(1))
    }
    state = fenced ? 'close' : 'after'
    if (fenced) return closeFence(final)
    const all = held
    held = ''
    if (final) return say(all)
    afterValue(all, false)
  }

  /** The value was no instruction after all (an object in an answer): it is prose. */
  function asProse(rest: string): void {
    const text = opener + buf
    buf = ''
    stack = []
    state = 'prose'
    sawArray = sawBefore
    say(text)
    if (fenced) code = /`{3,}/.exec(opener)?.[0] ?? '```'
    const nl = text.lastIndexOf('\n')
    partial = text.slice(nl + 1) // never empty: the value's last character is its brace
    feed(rest)
  }

  /** The key is the one before `:` (a quoted one, or a bare word). */
  function keyDone(f: Frame): void {
    if (!f.expectKey || !token) return
    f.key = bareKey(token)
    f.keys++
    if (kTypeKeys.has(f.key)) f.typed = true
    else if (kWords.has(f.key)) f.keyed = true
    f.expectKey = false
    token = ''
  }

  /** Closes the innermost container; returns false when the whole value turned out to be prose. */
  function close(): boolean {
    const f = stack.pop()!
    const text = buf.slice(f.start)
    if (f.role === 'maybe' && f.emitted === 0) {
      const step =
        f.parentList ||
        stack.length > 0 ||
        (inline ? f.worded || (f.keyed && f.keys === 1) : f.typed || (f.keyed && f.keys === 1))
      if (step) emit(text)
      else return false
    } else if (f.role === 'plain' && f.parentList) emit(text)
    return true
  }

  function openChild(c: '{' | '['): void {
    const p = stack[stack.length - 1]
    let role: Frame['role'] = 'plain'
    if (p.role === 'list') role = c === '{' ? 'maybe' : 'plain'
    else if (p.role === 'maybe' && p.open === '{' && kWrapperKeys.has(p.key)) role = c === '[' ? 'list' : 'maybe'
    stack.push({
      open: c,
      start: buf.length - 1,
      role,
      emitted: 0,
      key: '',
      typed: false,
      expectKey: c === '{',
      parentList: p.role === 'list',
      keys: 0,
      keyed: false,
      worded: false,
    })
  }

  /** Scans inside the value; returns the text after it, or null while it is open. */
  function scanValue(chunk: string): string | null {
    for (let i = 0; i < chunk.length && !stopped; i++) {
      const c = chunk[i]
      buf += c
      const f = stack[stack.length - 1]
      if (comment === 'line') {
        if (c === '\n') comment = null
        continue
      }
      if (comment === 'block') {
        if (c === '/' && buf[buf.length - 2] === '*') comment = null
        continue
      }
      if (inString) {
        if (escaped) escaped = false
        else if (c === '\\') escaped = true
        else if (c === inString) {
          inString = null
          if (!f.expectKey && kTypeKeys.has(f.key) && kWords.has(bareKey(token))) f.worded = true
          if (f.expectKey)
            continue // the key, once its `:` comes
          else if (f.role === 'list' && stack.length > 0) {
            // A bare string element: handed on so the reader can read it (a JSON string holding one) or reject it.
            const start = buf.lastIndexOf(c, buf.length - 2)
            emit(buf.slice(start))
          }
        } else if ((f.expectKey || kTypeKeys.has(f.key)) && token.length < 40) token += c
        continue
      }
      if (c === '/' && (chunk[i + 1] === '/' || chunk[i + 1] === '*' || i + 1 === chunk.length)) {
        // A comment opens (the next character decides; at a chunk's end, wait for it).
        if (i + 1 === chunk.length) {
          buf = buf.slice(0, -1)
          held = '/'
          return null
        }
        comment = chunk[i + 1] === '/' ? 'line' : 'block'
        buf += chunk[++i]
        continue
      }
      if (c === '"' || c === "'") {
        inString = c
        if (f.expectKey || kTypeKeys.has(f.key)) token = ''
        // A string element's start, for a list of strings.
        continue
      }
      if (c === '{' || c === '[') {
        openChild(c)
        continue
      }
      if (c === '}' || c === ']') {
        if (!close()) return (asProse(chunk.slice(i + 1)), null)
        if (stack.length === 0) {
          buf = ''
          if (valueEmitted > 0 || fenced) {
            state = valueEmitted > 0 ? 'between' : 'close'
            return chunk.slice(i + 1)
          }
          afterValue(chunk.slice(i + 1), true)
          return null
        }
        continue
      }
      if (f.open === '{') {
        if (c === ',') {
          f.expectKey = true
          token = ''
        } else if (c === ':') keyDone(f)
        else if (f.expectKey && /[\w$-]/.test(c)) token += c // a bare key
      }
    }
    return null
  }

  /** Reads a JSON string holding the plan, decoding escapes into the inner splitter. */
  function scanQuoted(chunk: string): string | null {
    let out = ''
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]
      quotedRaw += c
      if (escape) {
        escape += c
        if (escape[1] === 'u' && escape.length < 6) continue
        const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' }
        out +=
          escape[1] === 'u' ? String.fromCharCode(parseInt(escape.slice(2), 16) || 0x3f) : (map[escape[1]] ?? escape[1])
        escape = ''
        continue
      }
      if (c === '\\') {
        escape = c
        continue
      }
      if (c === '"') {
        inner!.push(out)
        finishQuoted()
        return chunk.slice(i + 1)
      }
      out += c
    }
    inner!.push(out)
    return null
  }

  function finishQuoted(): void {
    inner!.end()
    // The string held instructions: its words around them are prose. It held none: it is prose itself.
    say(innerEmitted > 0 ? innerProse : quotedRaw)
    if (innerEmitted === 0) sawArray = sawBefore
    inner = null
  }

  function end() {
    if (stopped) return { truncated: null, sawArray }
    let truncated: string | null = null
    if (held === '/' && state === 'json') {
      buf += held
      held = ''
    }
    if (state === 'think') {
      if (closeTag) {
        if (held) events.thinking?.(held)
      } else say(held)
    } else if (state === 'close') closeFence(true)
    else if (state === 'between') between(true)
    else if (state === 'prose')
      say(held) // a line that never opened instructions is prose after all
    else if (state === 'yaml') {
      // The closing fence may be the reply's last line, with no newline after it.
      if (!/^ {0,3}(`{3,}|~{3,})\s*$/.test(yaml.line)) yaml.lines.push(yaml.line)
      yaml.line = ''
      yamlItem(true)
    } else if (state === 'quoted') {
      const r = inner!.end()
      truncated = r.truncated
      if (truncated === null) {
        say(innerEmitted > 0 ? innerProse : quotedRaw)
        if (innerEmitted === 0) sawArray = sawBefore
      }
    } else if (state === 'json') {
      const top = stack[0]
      // An unfinished object that never looked like an instruction is prose; anything else was cut.
      if (
        top.role === 'maybe' &&
        valueEmitted === 0 &&
        !stack.some((f) => (inline ? f.worded : f.typed || kWrapperKeys.has(f.key)))
      ) {
        say(opener + buf)
        sawArray = sawBefore
      } else {
        const cut =
          stack.find((f, k) => f.parentList || (k > 0 && f.role === 'maybe')) ??
          (top.role === 'maybe' && valueEmitted === 0 ? top : undefined)
        truncated = cut ? buf.slice(cut.start) : null
      }
    }
    held = ''
    return { truncated, sawArray }
  }

  return {
    push: feed,
    end,
    stop: () => void (stopped = true),
    pristine: () => !opened && !closeTag,
  }
}
