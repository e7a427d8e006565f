import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A loopback LLM server that speaks the real wire formats — OpenAI chat completions and
 * Anthropic messages, streaming (SSE) and not — scripted per test, with injectable faults.
 * Tests queue replies with `script()`; each request takes the next one, and once the queue is
 * empty the server answers `[]` (nothing more to do), which ends an agent run.
 */
/** `http400-schema`: the 400 an OpenAI-compatible server gives when it does not take `response_format` json_schema. */
export type Fault = 'http401' | 'http429' | 'http500' | 'http400-schema' | 'malformed-json' | 'cut'

export interface ScriptedReply {
  /** The assistant text; streamed in `chunks` pieces when given, else in pieces of ~12 characters. */
  text?: string
  /** The assistant text computed from the request body when it arrives (a model that reads the prompt). */
  from?: (body: any) => string
  chunks?: string[]
  /** Pause between streamed chunks. */
  chunkDelayMs?: number
  /** Pause before the response headers (a slow first byte). */
  firstByteDelayMs?: number
  /** Nothing is sent until this settles: a model that has not answered yet, for as long as a test needs. */
  holdUntil?: Promise<unknown>
  fault?: Fault
  /** With `cut`: how many characters of the text to send before dropping the connection. */
  cutAfter?: number
  usage?: { input: number; output: number }
  /**
   * Reasoning sent apart from the answer, before it: OpenAI-compatible servers (DeepSeek, Qwen via
   * Ollama) as `reasoning_content` deltas, Anthropic as a thinking block.
   */
  reasoning?: string
  /** The reply stops at the token limit: OpenAI's `finish_reason: "length"`, Anthropic's `stop_reason: "max_tokens"`. */
  atLimit?: boolean
  /**
   * Native tool calls instead of text, as the APIs stream them: OpenAI `delta.tool_calls` (the
   * call's id and name, then its `arguments` text in pieces), Anthropic `tool_use` content blocks
   * with `input_json_delta` pieces.
   */
  toolCalls?: { name: string; arguments: object }[]
}

export interface RecordedRequest {
  api: 'openai' | 'anthropic' | 'models'
  path: string
  headers: Record<string, string | string[] | undefined>
  body: any
  at: number
  /** When the last byte of the response was written (or the connection was cut). */
  endedAt?: number
}

export interface LlmServer {
  url: string
  /** Base URL for either provider: both APIs live under /v1. */
  baseUrl: string
  requests: RecordedRequest[]
  script(...replies: ScriptedReply[]): void
  /** Requires this key (as x-api-key or a bearer token); a request without it gets a 401. */
  requireKey(key: string | null): void
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function split(text: string, size = 12): string[] {
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  const raw = Buffer.concat(chunks).toString('utf8')
  try {
    return raw ? JSON.parse(raw) : {}
  } catch {
    return { raw }
  }
}

function cors(res: ServerResponse) {
  res.setHeader('access-control-allow-origin', '*')
  res.setHeader('access-control-allow-headers', '*')
  res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS')
}

function errorBody(api: 'openai' | 'anthropic', status: number, message: string) {
  if (api === 'anthropic') {
    const type = status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : 'api_error'
    return { type: 'error', error: { type, message } }
  }
  const type = status === 401 ? 'invalid_request_error' : status === 429 ? 'rate_limit_exceeded' : 'server_error'
  return { error: { message, type, code: status === 401 ? 'invalid_api_key' : null } }
}

export async function startLlmServer(): Promise<LlmServer> {
  let queue: ScriptedReply[] = []
  let requiredKey: string | null = null
  const requests: RecordedRequest[] = []

  const server = createServer(async (req, res) => {
    cors(res)
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end()
      return
    }
    const path = (req.url ?? '').split('?')[0]
    if (req.method === 'GET' && path === '/v1/models') {
      requests.push({ api: 'models', path, headers: req.headers, body: null, at: Date.now() })
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data: [{ id: 'test-model', object: 'model' }] }))
      return
    }
    const api = path === '/v1/chat/completions' ? 'openai' : path === '/v1/messages' ? 'anthropic' : null
    if (!api || req.method !== 'POST') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }))
      return
    }
    const body = await readBody(req)
    const record: RecordedRequest = { api, path, headers: req.headers, body, at: Date.now() }
    requests.push(record)
    const reply = queue.shift() ?? { text: '[]' }

    if (reply.firstByteDelayMs) await sleep(reply.firstByteDelayMs)
    if (reply.holdUntil) await reply.holdUntil
    const presented =
      (req.headers['x-api-key'] as string | undefined) ??
      (req.headers.authorization as string | undefined)?.replace(/^Bearer\s+/i, '')
    const fault = requiredKey !== null && presented !== requiredKey ? 'http401' : reply.fault
    const statusFor: Partial<Record<Fault, number>> = {
      http401: 401,
      http429: 429,
      http500: 500,
      'http400-schema': 400,
    }
    if (fault && statusFor[fault]) {
      const status = statusFor[fault]!
      const msg =
        status === 401
          ? 'Invalid API key provided.'
          : status === 429
            ? 'Rate limit reached, slow down.'
            : status === 400
              ? "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."
              : 'The server had an internal error.'
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(api, status, msg)))
      record.endedAt = Date.now()
      return
    }

    const text = reply.from?.(body) ?? reply.text ?? (reply.chunks ?? []).join('')
    const pieces = reply.chunks ?? split(text)
    const usage = reply.usage ?? { input: 100, output: Math.ceil(text.length / 4) }
    const model = body.model ?? 'test-model'

    if (!body.stream) {
      const payload =
        api === 'openai'
          ? {
              id: 'chatcmpl-1',
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model,
              choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
              usage: {
                prompt_tokens: usage.input,
                completion_tokens: usage.output,
                total_tokens: usage.input + usage.output,
              },
            }
          : {
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model,
              content: [{ type: 'text', text }],
              stop_reason: 'end_turn',
              stop_sequence: null,
              usage: { input_tokens: usage.input, output_tokens: usage.output },
            }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(fault === 'malformed-json' ? '{"id": "chatcmpl-1", "choices": [' : JSON.stringify(payload))
      record.endedAt = Date.now()
      return
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
    const sse = (data: unknown, event?: string) =>
      res.write(
        `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
      )
    const created = Math.floor(Date.now() / 1000)
    const openaiChunk = (delta: object, finish: string | null = null, extra: object = {}) => ({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    })

    // A request that forces a tool (Anthropic's structured output) is answered the way Claude
    // does: the tool's input, streamed as JSON deltas, is the text.
    const forced = api === 'anthropic' && ['tool', 'any'].includes(body.tool_choice?.type) && body.tools?.length
    const tool = forced ? ((body.tool_choice.name ?? body.tools[0].name) as string) : null
    const block = reply.reasoning && api === 'anthropic' ? 1 : 0
    if (api === 'openai') {
      sse(openaiChunk({ role: 'assistant', content: '' }))
      for (const r of split(reply.reasoning ?? '')) sse(openaiChunk({ reasoning_content: r }))
    } else {
      sse(
        {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: usage.input, output_tokens: 1 },
          },
        },
        'message_start',
      )
      if (reply.reasoning) {
        sse(
          { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
          'content_block_start',
        )
        for (const r of split(reply.reasoning))
          sse(
            { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: r } },
            'content_block_delta',
          )
        sse(
          { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } },
          'content_block_delta',
        )
        sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop')
      }
      sse(
        {
          type: 'content_block_start',
          index: block,
          content_block: tool ? { type: 'tool_use', id: 'toolu_1', name: tool, input: {} } : { type: 'text', text: '' },
        },
        'content_block_start',
      )
    }
    if (reply.toolCalls) {
      // Anthropic: the empty text block opened above ends before the calls' blocks, as Claude's do after a preamble.
      if (api === 'anthropic') sse({ type: 'content_block_stop', index: block }, 'content_block_stop')
      for (const [i, c] of reply.toolCalls.entries()) {
        const args = JSON.stringify(c.arguments)
        if (api === 'openai') {
          sse(
            openaiChunk({
              tool_calls: [{ index: i, id: `call_${i}`, type: 'function', function: { name: c.name, arguments: '' } }],
            }),
          )
          for (const piece of split(args, 7)) {
            if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs)
            sse(openaiChunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }))
          }
        } else {
          const at = block + 1 + i
          sse(
            {
              type: 'content_block_start',
              index: at,
              content_block: { type: 'tool_use', id: `toolu_${i}`, name: c.name, input: {} },
            },
            'content_block_start',
          )
          for (const piece of split(args, 7)) {
            if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs)
            sse(
              { type: 'content_block_delta', index: at, delta: { type: 'input_json_delta', partial_json: piece } },
              'content_block_delta',
            )
          }
          sse({ type: 'content_block_stop', index: at }, 'content_block_stop')
        }
      }
      if (api === 'openai') {
        sse(openaiChunk({}, 'tool_calls'))
        sse(
          openaiChunk({}, null, {
            choices: [],
            usage: {
              prompt_tokens: usage.input,
              completion_tokens: usage.output,
              total_tokens: usage.input + usage.output,
            },
          }),
        )
        sse('[DONE]')
      } else {
        sse(
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use', stop_sequence: null },
            usage: { output_tokens: usage.output },
          },
          'message_delta',
        )
        sse({ type: 'message_stop' }, 'message_stop')
      }
      record.endedAt = Date.now()
      res.end()
      return
    }
    const anthropicDelta = (t: string) =>
      sse(
        {
          type: 'content_block_delta',
          index: block,
          delta: tool ? { type: 'input_json_delta', partial_json: t } : { type: 'text_delta', text: t },
        },
        'content_block_delta',
      )

    let sent = 0
    for (const piece of pieces) {
      if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs)
      if (fault === 'cut' && sent + piece.length > (reply.cutAfter ?? text.length / 2)) {
        const part = piece.slice(0, Math.max(0, (reply.cutAfter ?? text.length / 2) - sent))
        if (part && api === 'openai') sse(openaiChunk({ content: part }))
        else if (part) anthropicDelta(part)
        // Dropped a moment after the last byte, as a proxy that gives up does: a connection reset
        // discards what the browser has not read yet, and on a busy machine 20 ms was not enough
        // for it to read what was sent, so the reply seemed never to have come.
        await sleep(250)
        record.endedAt = Date.now()
        res.destroy()
        return
      }
      if (fault === 'malformed-json' && sent > 0) {
        res.write(
          api === 'openai'
            ? 'data: {"id":"chatcmpl-1","choices":[{"delta":{"content":"x"}\n\n'
            : 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{\n\n',
        )
        await sleep(20)
        record.endedAt = Date.now()
        res.end()
        return
      }
      if (api === 'openai') sse(openaiChunk({ content: piece }))
      else anthropicDelta(piece)
      sent += piece.length
    }
    if (api === 'openai') {
      sse(openaiChunk({}, reply.atLimit ? 'length' : 'stop'))
      sse(
        openaiChunk({}, null, {
          choices: [],
          usage: {
            prompt_tokens: usage.input,
            completion_tokens: usage.output,
            total_tokens: usage.input + usage.output,
          },
        }),
      )
      sse('[DONE]')
    } else {
      sse({ type: 'content_block_stop', index: block }, 'content_block_stop')
      sse(
        {
          type: 'message_delta',
          delta: { stop_reason: reply.atLimit ? 'max_tokens' : tool ? 'tool_use' : 'end_turn', stop_sequence: null },
          usage: { output_tokens: usage.output },
        },
        'message_delta',
      )
      sse({ type: 'message_stop' }, 'message_stop')
    }
    record.endedAt = Date.now()
    res.end()
  })

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    script(...replies) {
      queue = [...replies]
    },
    requireKey(key) {
      requiredKey = key
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
