import { APICallError, type ModelMessage } from 'ai'
import { AvaError } from '../core/errors'
import { instructionJsonSchema, planTools } from '../core/instruction/schema'
import { toolCallText } from '../core/instruction/tool-calls'
import { isProviderEndpoint, kProviders, type PlanPath } from '../core/providers'
import { classifyLlmError, createModel, providerMessage, requestTest, type Model } from '../model/llm'
import type { LlmSettings } from '../core/settings'
import { markAnswered } from '../storage/setup'
import { planPaths, structuredRefused } from '../storage/structured'

type Prompt = Parameters<Model['doStream']>[0]['prompt']

export interface StreamOptions {
  llm: LlmSettings
  system: string
  messages: ModelMessage[]
  signal: AbortSignal
  onText(delta: string): void | Promise<void>
  /** The model's reasoning (`reasoning_content` deltas, Anthropic thinking blocks): never the answer. */
  onThinking?(delta: string): void
  /** Nothing came for `kSlowStartMs`: a local model is likely still loading. */
  onSlowStart?(): void
  /** Ask for the plan as structured output (the profile's id, to remember a server that rejects it). */
  structured?: { profileId: string }
}

export interface StreamOutcome {
  text: string
  usage: { inputTokens?: number; outputTokens?: number }
  /** The provider stopped at its token limit (OpenAI `finish_reason: length`, Anthropic `stop_reason: max_tokens`, Ollama `done_reason: length`). */
  cutAtLimit?: boolean
}

const kSlowStartMs = 5_000 // a hosted model answers within a few seconds; Ollama loading a model takes 10–60 s

/** What the planner is asked to fill when the provider takes a schema: `{"steps": [instruction…]}`. */
export function planJsonSchema(): Record<string, unknown> {
  const { $schema: _s, ...instruction } = instructionJsonSchema()
  return {
    type: 'object',
    properties: { steps: { type: 'array', items: instruction } },
    required: ['steps'],
    additionalProperties: false,
  }
}

/**
 * Streams one completion. Errors come back as AvaError with a code the panel can explain;
 * a first byte later than `requestTimeoutMs` is a MODEL_TIMEOUT, not an endless spinner.
 *
 * With `structured`, the plan is asked for as structured output where the profile's provider has
 * it (docs/agent.md, "Structured output"); its JSON still streams as text, so the splitter runs
 * each step as it arrives. A server that rejects the request is asked again once without it, and
 * the profile remembers that (storage/structured.ts).
 */
export async function streamCompletion(o: StreamOptions): Promise<StreamOutcome> {
  const path = await pathFor(o)
  try {
    return await streamOnce(o, path)
  } catch (e) {
    if (path === 'text' || !(e instanceof AvaError) || !rejectsStructured(e, o.llm)) throw e
    if (path === 'schema') await structuredRefused.remember(o.structured!.profileId, o.llm)
    else await planPaths.remember(o.structured!.profileId, o.llm, 'text')
    return streamOnce(o, 'text')
  }
}

/**
 * How this request asks for the plan (docs/settings.md, "How the plan comes back"): what `Test
 * connection` found the profile's server accepts, else structured output where the provider's own
 * endpoint has it (or the person switched it on), else text.
 */
async function pathFor(o: StreamOptions): Promise<PlanPath> {
  if (!o.structured || o.llm.structuredOutput === 'off') return 'text'
  const learned = await planPaths.learned(o.structured.profileId, o.llm)
  if (learned) return learned
  return (await structuredRefused.wanted(o.structured.profileId, o.llm)) ? 'schema' : 'text'
}

/**
 * Finds which path an unknown server takes, for `Test connection`: structured output, else tool
 * calls, else text, each tried with a one-line request; the answer is kept for the profile. At the
 * provider's own endpoint the table's first path is known and nothing is tried.
 */
export async function probePlanPath(llm: LlmSettings, profileId: string, signal: AbortSignal): Promise<PlanPath> {
  const info = kProviders[llm.provider]
  if (llm.structuredOutput === 'off') return 'text'
  if (isProviderEndpoint(llm) && llm.structuredOutput !== 'on') return info.paths[0]
  for (const path of info.paths) {
    if (path === 'text') break
    try {
      await streamOnce(
        {
          llm,
          system: 'Reply with an empty plan.',
          messages: [{ role: 'user', content: 'Nothing to do.' }],
          signal,
          onText: () => undefined,
        },
        path,
      )
      await planPaths.remember(profileId, llm, path)
      return path
    } catch (e) {
      if (signal.aborted || !(e instanceof AvaError) || !rejectsStructured(e, llm)) throw e
    }
  }
  await planPaths.remember(profileId, llm, 'text')
  return 'text'
}

/** A 400-class answer that names the structured-output request. */
function rejectsStructured(e: AvaError, llm: LlmSettings): boolean {
  const status = Number(e.details?.status)
  // A server at a Local address that is not Ollama (LM Studio, llama.cpp) has no /api/chat.
  if (status === 404) return kProviders[llm.provider].structuredOutput === 'format' && !e.details?.msg
  return [400, 415, 422, 501].includes(status) && /response_format|json_schema|schema|format|tool/i.test(e.message)
}

async function streamOnce(o: StreamOptions, path: PlanPath): Promise<StreamOutcome> {
  const structured = path === 'schema'
  const firstByte = new AbortController()
  const timer = setTimeout(
    () => firstByte.abort(new AvaError('MODEL_TIMEOUT', timeoutMessage(o.llm.requestTimeoutMs))),
    o.llm.requestTimeoutMs,
  )
  const slow = setTimeout(() => o.onSlowStart?.(), kSlowStartMs)
  const started = () => {
    clearTimeout(timer)
    clearTimeout(slow)
  }
  const signal = AbortSignal.any([o.signal, firstByte.signal])
  let text = ''
  let usage: StreamOutcome['usage'] = {}
  let cutAtLimit = false
  try {
    // The provider's stream itself, not `streamText`: its layers of stream transforms cost more per
    // part than everything else the worker does with it, and a 64 KB answer comes in ~5,500 parts
    // ("done within 2 s of its last byte"). Retries, tools and steps, which those layers
    // add, are not used here.
    const how = structured ? kProviders[o.llm.provider].structuredOutput : null
    const tools =
      path === 'tools'
        ? planTools().map((t) => ({ type: 'function' as const, ...t, inputSchema: t.inputSchema as never }))
        : undefined
    // Ollama's own /api/chat takes tools too; a local server without it (LM Studio) is asked on /v1.
    const native = how === 'format' || (tools && kProviders[o.llm.provider].structuredOutput === 'format')
    const viaV1 = async () =>
      (
        await createModel(o.llm).doStream({
          prompt: toPrompt(o.system, o.messages),
          abortSignal: signal,
          temperature: 0,
          tools,
          toolChoice: { type: 'auto' as const },
        })
      ).stream
    const stream: ReadableStream<StreamPart> = native
      ? await ollamaChat(o, signal, tools ? 'tools' : 'format').catch((e: unknown) => {
          // No /api/chat (LM Studio, llama.cpp's server): tools on the OpenAI-compatible /v1.
          if (tools && APICallError.isInstance(e) && e.statusCode === 404 && !/model/i.test(e.message)) return viaV1()
          throw e
        })
      : (
          await createModel(o.llm).doStream({
            prompt: toPrompt(o.system, o.messages),
            abortSignal: signal,
            temperature: 0,
            ...(tools ? { tools, toolChoice: { type: 'auto' as const } } : {}),
            ...(how
              ? {
                  responseFormat: {
                    type: 'json' as const,
                    schema: planJsonSchema() as never,
                    name: 'plan',
                    description: 'The steps to take, in order',
                  },
                  // Anthropic: a forced tool whose input is the plan; its input deltas stream as text.
                  ...(how === 'tool' ? { providerOptions: { anthropic: { structuredOutputMode: 'jsonTool' } } } : {}),
                }
              : {}),
          })
        ).stream
    const reader = stream.getReader()
    // Stop and Ava's own cuts end the reading at once, whatever the aborted fetch does with the
    // parts it already holds.
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason)
      signal.addEventListener('abort', () => reject(signal.reason), { once: true })
    })
    aborted.catch(() => undefined)
    const calls = toolCallText()
    try {
      for (;;) {
        const { done, value: part } = await Promise.race([reader.read(), aborted])
        if (done) break
        const call = calls(part)
        if (call !== undefined) {
          started()
          text += call
          await o.onText(call)
        } else if (part.type === 'text-delta') {
          started()
          text += part.delta
          await o.onText(part.delta)
        } else if (part.type === 'reasoning-delta') {
          started()
          o.onThinking?.(part.delta)
        } else if (part.type === 'error') {
          throw part.error
        } else if (part.type === 'finish') {
          usage = { inputTokens: part.usage.inputTokens.total, outputTokens: part.usage.outputTokens.total }
          cutAtLimit = part.finishReason.unified === 'length'
        }
      }
    } finally {
      // Stops the download when we stop reading early (an error part, a failing onText).
      void reader.cancel().catch(() => undefined)
    }
    if (signal.aborted) throw signal.reason
    // First run: the panel stops asking for set-up once any model has answered.
    if (text) void markAnswered()
    return { text, usage, ...(cutAtLimit ? { cutAtLimit } : {}) }
  } catch (e) {
    if (firstByte.signal.aborted && !o.signal.aborted) throw firstByte.signal.reason
    // Whatever the aborted fetch threw, the reason says why (Stop, or a guard that ended the run).
    throw classifyLlmError(o.signal.aborted ? o.signal.reason : e, o.llm.baseUrl, o.llm)
  } finally {
    started()
  }
}

type StreamPart = Awaited<ReturnType<Model['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never

/**
 * Ollama's native chat (`POST /api/chat`, NDJSON), the one place its `format` schema is taken as
 * such (docs/agent.md, "Structured output"); its lines become the same parts the SDK's providers
 * stream: `message.content` is text, `message.thinking` reasoning, the last line's counts usage.
 */
async function ollamaChat(
  o: StreamOptions,
  signal: AbortSignal,
  ask: 'format' | 'tools',
): Promise<ReadableStream<StreamPart>> {
  const url = `${o.llm.baseUrl.trim().replace(/\/+$/, '').replace(/\/v1$/, '')}/api/chat`
  // A screenshot goes as Ollama's `images` (base64) beside the words, as its vision models take it.
  const messages = toPrompt(o.system, o.messages).map((m) => {
    if (typeof m.content === 'string') return { role: m.role, content: m.content }
    const images = m.content.flatMap((c) => (c.type === 'file' && typeof c.data === 'string' ? [c.data] : []))
    return {
      role: m.role,
      content: m.content.map((c) => ('text' in c ? c.text : '')).join(''),
      ...(images.length ? { images } : {}),
    }
  })
  const asked =
    ask === 'tools'
      ? {
          tools: planTools().map((t) => ({
            type: 'function',
            function: { name: t.name, description: t.description, parameters: t.inputSchema },
          })),
        }
      : { format: planJsonSchema() }
  const body = { model: o.llm.model, stream: true, ...asked, options: { temperature: 0 }, messages }
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(o.llm.apiKey ? { authorization: `Bearer ${o.llm.apiKey}` } : {}),
    },
    body: JSON.stringify(body),
    signal,
  })
  if (!res.ok || !res.body) {
    const text = await res.text().catch(() => '')
    throw new APICallError({
      message: providerMessage(text) ?? `HTTP ${res.status}`,
      url,
      requestBodyValues: body,
      statusCode: res.status,
      responseBody: text,
    })
  }
  let rest = ''
  let calls = 0
  const line = (l: string, out: TransformStreamDefaultController<StreamPart>) => {
    if (!l.trim()) return
    const j = JSON.parse(l) as {
      message?: {
        content?: string
        thinking?: string
        tool_calls?: { function?: { name?: string; arguments?: unknown } }[]
      }
      done?: boolean
      done_reason?: string
      error?: string
      prompt_eval_count?: number
      eval_count?: number
    }
    if (j.error)
      return out.enqueue({
        type: 'error',
        error: new APICallError({ message: j.error, url, requestBodyValues: body, statusCode: 500, responseBody: l }),
      })
    if (j.message?.thinking) out.enqueue({ type: 'reasoning-delta', id: 'r', delta: j.message.thinking })
    if (j.message?.content) out.enqueue({ type: 'text-delta', id: 't', delta: j.message.content })
    // Ollama sends each tool call whole, in the line that completes it.
    for (const c of j.message?.tool_calls ?? []) {
      if (c.function?.name)
        out.enqueue({
          type: 'tool-call',
          toolCallId: `call_${++calls}`,
          toolName: c.function.name,
          input:
            typeof c.function.arguments === 'string'
              ? c.function.arguments
              : JSON.stringify(c.function.arguments ?? {}),
        })
    }
    if (j.done) {
      const usage = {
        inputTokens: { total: j.prompt_eval_count, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: j.eval_count, text: undefined, reasoning: undefined },
      }
      const reason = j.done_reason === 'length' ? 'length' : 'stop'
      out.enqueue({
        type: 'finish',
        finishReason: { unified: reason, raw: j.done_reason ?? 'stop' },
        usage,
      } as StreamPart)
    }
  }
  return res.body.pipeThrough(new TextDecoderStream()).pipeThrough(
    new TransformStream<string, StreamPart>({
      transform(chunk, out) {
        const lines = (rest + chunk).split('\n')
        rest = lines.pop() ?? ''
        for (const l of lines) line(l, out)
      },
      flush(out) {
        line(rest, out)
      },
    }),
  )
}

type UserPart = Extract<Prompt[number], { role: 'user' }>['content'][number]

/**
 * The conversation in the providers' form: text, and a user turn's screenshot as a file part with
 * an image media type, which the Anthropic provider sends as an `image` block and the
 * OpenAI-compatible one as an `image_url` data URL (docs/agent.md, "Screenshots").
 */
function toPrompt(system: string, messages: ModelMessage[]): Prompt {
  const prompt: Prompt = [{ role: 'system', content: system }]
  for (const m of messages) {
    if (m.role === 'system') prompt.push({ role: 'system', content: m.content })
    else if (typeof m.content === 'string' && (m.role === 'user' || m.role === 'assistant'))
      prompt.push({ role: m.role, content: [{ type: 'text', text: m.content }] })
    else if (m.role === 'user' && typeof m.content !== 'string') {
      const content: UserPart[] = m.content.map((c): UserPart => {
        if (c.type === 'text') return { type: 'text', text: c.text }
        if (c.type === 'image' && typeof c.image === 'string')
          return { type: 'file', data: c.image, mediaType: c.mediaType ?? 'image/png' }
        throw new AvaError('UNKNOWN', 'Only text and images can be sent to the model.')
      })
      prompt.push({ role: 'user', content })
    } else throw new AvaError('UNKNOWN', 'Only text and images can be sent to the model.')
  }
  return prompt
}

/** "Test connection" (src/model/llm.ts's request), and a model that answered marks the set-up done. */
export async function testConnection(llm: LlmSettings, signal: AbortSignal): Promise<{ reply: string; model: string }> {
  const r = await requestTest(llm, signal)
  void markAnswered()
  return r
}

function timeoutMessage(ms: number): string {
  return `The model did not start answering within ${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s.`
}
