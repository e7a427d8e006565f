/**
 * The record of one run (docs/run-record.md): what each step was judged as and acted on, the
 * questions and their answers, failures with their codes, what the model was sent and replied,
 * the screenshots that left the browser, tokens, cost and timings. Built here from the run's
 * events (the run's parts call a `RunRecorder`), kept by the background, exported as JSON or one HTML file
 * (record-html.ts).
 *
 * Every string in a finished record passes the one redactor (redact.ts `redactShapes`) over the
 * vault and what the run typed; a screenshot is the one that was sent, its secrets already
 * blacked out in the page (docs/security.md, "Pictures").
 */
import { kProviders, isProviderEndpoint, type ProviderKind } from '../providers'
import type { Instruction } from '../instruction/schema'
import { redactShapes } from './redact'
import type { PlannerMessage } from './state'

export const kRecordVersion = 1

/** A picture that was sent to the model, as sent (a data URL's parts). */
export interface RecordShot {
  id: string
  at: number
  mediaType: string
  /** Base64; absent when the record's size bound dropped it (`dropped`). */
  data?: string
  dropped?: boolean
}

export type RecordEvent =
  | {
      kind: 'model'
      at: number
      ms: number
      /** The system prompt, only when it differs from the previous call's. */
      system?: string
      /** Messages before `input` that the previous model events already hold (the call's history). */
      history: number
      /** The messages this call added, images replaced by the shot's id. */
      input: { role: 'user' | 'assistant'; content: string; shot?: string }[]
      output: string
      tokens: { input: number; output: number }
      /** The stream failed (its message), or was cut by Ava. */
      error?: string
      /** The size bound dropped the texts. */
      dropped?: boolean
    }
  | {
      kind: 'step'
      at: number
      ms?: number
      index: number
      action: string
      description?: string
      /** The instruction as it may be stored (secrets replaced). */
      params: Instruction['params']
      status: 'ok' | 'failed' | 'skipped'
      detail?: string
      code?: string
      /** How the step was judged: `safe`, or the risk category the person was asked about. */
      judged: string
      /** The element as drawn (the question's element), else as the page described it. */
      element?: string
      /** The ladder rung that found the element. */
      rung?: string
    }
  | {
      kind: 'question'
      at: number
      step: number
      /** `confirm`: a risky step's yes/no; `ask`: the model's question to the person. */
      type: 'confirm' | 'ask'
      question: string
      element?: string
      category?: string
      /** `yes`, `no`, the person's words, or `continued`, `unanswered`. */
      answer: string
    }
  | { kind: 'failure'; at: number; code: string; message: string }
  | { kind: 'note'; at: number; text: string }
  /** A picture taken apart from a model call (`ava run`'s page at a failure). */
  | { kind: 'shot'; at: number; shot: string; caption: string }

/** `completed`: a flow or pack run with no model (`ava run`): every step ran, nothing checked their effect; its author decided what it claims. */
export type VerdictKind = 'verified' | 'answered' | 'judged' | 'unverified' | 'completed' | 'not-done'

/** Whether what was asked is done (verdict.ts), and what on the page shows it. */
export interface Verdict {
  /** Reported as success. */
  done: boolean
  kind: VerdictKind
  evidence?: { text?: string[]; url?: string; element?: string }
  /** Quoted words the keyword verifier did not find. */
  missing?: string[]
}

export interface RunRecord {
  version: typeof kRecordVersion
  id: string
  /** The chat message that shows the run (the panel's Export button finds the record by it). */
  messageId?: string
  /** The site whose history the run belongs to (`cli` for `ava run`). */
  origin: string
  request: string
  startUrl: string
  startedAt: number
  endedAt?: number
  status: string
  verdict?: Verdict
  answer?: string
  model?: { provider: string; model: string }
  tokens: { input: number; output: number }
  /** US dollars, from the provider's published prices; absent when the provider or model has none. */
  costUsd?: number
  events: RecordEvent[]
  shots: RecordShot[]
  /** The run resumed after the worker restarted: what came before is not in the record. */
  resumed?: boolean
  /** The size bound dropped pictures or model texts (oldest first). */
  trimmed?: boolean
}

/**
 * Per million tokens, input and output, for a model at its provider's own endpoint; undefined
 * where the provider prices nothing (a local server) or the model is not in its table. A model
 * name served elsewhere (a proxy, an OpenAI-compatible local server) has no known price: no cost is
 * invented for it.
 */
export function priceOf(p: { provider: ProviderKind; model: string; baseUrl: string }): [number, number] | undefined {
  if (!isProviderEndpoint(p)) return undefined
  const hit = kProviders[p.provider]?.prices.find(([re]) => re.test(p.model))
  return hit ? [hit[1], hit[2]] : undefined
}

export function costOf(
  p: { provider: ProviderKind; model: string; baseUrl: string },
  tokens: { input: number; output: number },
): number | undefined {
  const price = priceOf(p)
  return price ? (tokens.input * price[0] + tokens.output * price[1]) / 1_000_000 : undefined
}

export interface RunRecorder {
  model(e: {
    at: number
    ms: number
    system: string
    messages: PlannerMessage[]
    output: string
    tokens: { inputTokens?: number; outputTokens?: number }
    error?: string
    /** A call outside the planner's conversation (a repair): it does not move the history on. */
    aside?: boolean
  }): void
  step(e: Omit<Extract<RecordEvent, { kind: 'step' }>, 'kind' | 'judged'> & { judged?: string }): void
  question(e: Omit<Extract<RecordEvent, { kind: 'question' }>, 'kind'>): void
  failure(e: { at: number; code: string; message: string }): void
  note(e: { at: number; text: string }): void
  shot(e: { at: number; image: { data: string; mediaType: string }; caption: string }): void
  /** The finished record, every string redacted of `hidden`. */
  end(e: { at: number; status: string; verdict?: Verdict; answer?: string }, hidden: readonly string[]): RunRecord
}

export function createRunRecorder(o: {
  id: string
  messageId?: string
  origin: string
  request: string
  startUrl: string
  startedAt: number
  llm?: { provider: ProviderKind; model: string; baseUrl: string }
  resumed?: boolean
}): RunRecorder {
  const events: RecordEvent[] = []
  const shots: RecordShot[] = []
  const tokens = { input: 0, output: 0 }
  let lastSystem = ''
  let seen = 0
  // A step's element and judgement come from its question, asked before the step's end.
  const asked = new Map<number, { element?: string; category?: string }>()
  return {
    model(e) {
      tokens.input += e.tokens.inputTokens ?? 0
      tokens.output += e.tokens.outputTokens ?? 0
      // A call's messages start with what the previous call sent (earlier turns): only the rest is new.
      const from = !e.aside && e.messages.length >= seen ? seen : 0
      const input = e.messages.slice(from).map((m) => {
        if (!m.image) return { role: m.role, content: m.content }
        const id = `shot${shots.length + 1}`
        shots.push({ id, at: e.at, mediaType: m.image.mediaType, data: m.image.data })
        return { role: m.role, content: m.content, shot: id }
      })
      // The next call's history is this call's messages and the reply, as the planner keeps them.
      if (!e.aside) seen = e.messages.length + 1
      events.push({
        kind: 'model',
        at: e.at,
        ms: e.ms,
        ...(e.system !== lastSystem ? { system: e.system } : {}),
        history: from,
        input,
        output: e.output,
        tokens: { input: e.tokens.inputTokens ?? 0, output: e.tokens.outputTokens ?? 0 },
        ...(e.error ? { error: e.error } : {}),
      })
      lastSystem = e.system
    },
    step(e) {
      const q = asked.get(e.index)
      events.push({
        kind: 'step',
        ...e,
        judged: e.judged ?? q?.category ?? 'safe',
        ...((e.element ?? q?.element) ? { element: e.element ?? q?.element } : {}),
      })
    },
    question(e) {
      if (e.type === 'confirm')
        asked.set(e.step, { element: e.element ?? asked.get(e.step)?.element, category: e.category ?? 'risky' })
      events.push({ kind: 'question', ...e })
    },
    failure(e) {
      events.push({ kind: 'failure', ...e })
    },
    note(e) {
      events.push({ kind: 'note', ...e })
    },
    shot(e) {
      const id = `shot${shots.length + 1}`
      shots.push({ id, at: e.at, mediaType: e.image.mediaType, data: e.image.data })
      events.push({ kind: 'shot', at: e.at, shot: id, caption: e.caption })
    },
    end(e, hidden) {
      const record: RunRecord = {
        version: kRecordVersion,
        id: o.id,
        ...(o.messageId ? { messageId: o.messageId } : {}),
        origin: o.origin,
        request: o.request,
        startUrl: o.startUrl,
        startedAt: o.startedAt,
        endedAt: e.at,
        status: e.status,
        ...(e.verdict ? { verdict: e.verdict } : {}),
        ...(e.answer !== undefined ? { answer: e.answer } : {}),
        ...(o.llm ? { model: { provider: o.llm.provider, model: o.llm.model } } : {}),
        tokens: { ...tokens },
        events: structuredClone(events),
        shots: structuredClone(shots),
        ...(o.resumed ? { resumed: true } : {}),
      }
      const cost = o.llm ? costOf(o.llm, tokens) : undefined
      if (cost !== undefined) record.costUsd = cost
      return redactRecord(record, hidden)
    },
  }
}

/**
 * Every string of the record redacted of `hidden` in any shape (redact.ts), pictures' bytes
 * aside: a picture is the one the model was sent, its secrets blacked out where it was taken.
 */
export function redactRecord(record: RunRecord, hidden: readonly string[]): RunRecord {
  // A secret written out in an encoding (a URL's percent-escapes, base64 in a data URL or a token)
  // has letters the shapes do not fold back: those forms are looked for as well.
  const values = [...new Set(hidden.filter(Boolean).flatMap(encodingsOf))]
  if (!values.length) return record
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') return key === 'data' ? v : redactShapes(v, values)
    if (Array.isArray(v)) return v.map((x) => walk(x))
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]))
    return v
  }
  return walk(record) as RunRecord
}

/** A value and its encoded forms: percent-encoded, and base64 at each of the three byte alignments. */
function encodingsOf(value: string): string[] {
  const bytes = new TextEncoder().encode(value)
  const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b))
  const out = [value, encodeURIComponent(value), b64(bytes)]
  // Inside longer base64 the value starts at any byte: its middle, away from the padded edges, is the same.
  for (const pad of [1, 2]) {
    const enc = b64(new Uint8Array([...new Uint8Array(pad), ...bytes]))
    const inner = enc.slice(4, -4)
    if (inner.length >= 8) out.push(inner)
  }
  const whole = out[2].replace(/=+$/, '')
  if (whole.length > 8) out.push(whole.slice(0, -2))
  return out
}

/** The size of a record as stored (JSON characters). */
export function recordSize(record: RunRecord): number {
  return JSON.stringify(record).length
}

/**
 * The record under `maxChars`: pictures dropped first, oldest first, then the model's texts,
 * oldest first; the steps, questions, failures and verdict are always kept.
 */
export function boundRecord(record: RunRecord, maxChars: number): RunRecord {
  if (recordSize(record) <= maxChars) return record
  const out = structuredClone(record)
  out.trimmed = true
  let size = recordSize(out)
  for (const shot of out.shots) {
    if (size <= maxChars) return out
    if (!shot.data) continue
    size -= shot.data.length
    delete shot.data
    shot.dropped = true
  }
  for (const e of out.events) {
    if (size <= maxChars) return out
    if (e.kind !== 'model' || e.dropped) continue
    const before = JSON.stringify(e).length
    e.input = e.input.map((m) => ({ ...m, content: '' }))
    e.output = ''
    delete e.system
    e.dropped = true
    size -= before - JSON.stringify(e).length
  }
  return out
}

/** How many records are kept, for how long, and how large each may be (settings.records). */
export interface RecordBounds {
  /** The newest this many records are kept. */
  count: number
  /** Records older than this many days are dropped. */
  days: number
  /** One record's JSON characters at most (boundRecord). */
  maxChars: number
}

export const kDayMs = 86_400_000

/**
 * The records to keep of `records` (any order), newest first: each within the size bound,
 * younger than `days`, at most `count` of them.
 */
export function keepRecords(records: readonly RunRecord[], bounds: RecordBounds, now: number): RunRecord[] {
  return [...records]
    .filter((r) => now - (r.endedAt ?? r.startedAt) <= bounds.days * kDayMs)
    .sort((a, b) => (b.endedAt ?? b.startedAt) - (a.endedAt ?? a.startedAt))
    .slice(0, bounds.count)
    .map((r) => boundRecord(r, bounds.maxChars))
}
