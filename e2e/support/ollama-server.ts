import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A loopback Ollama: its native API (`GET /api/tags`, streaming NDJSON `POST /api/chat`) and its
 * OpenAI-compatible one (`GET /v1/models`, streaming SSE `POST /v1/chat/completions`), with the
 * behaviours a person meets on a fresh install (docs/settings.md, "Local models"):
 * - origins it was not told about (OLLAMA_ORIGINS) get a bare 403, as Ollama's CORS check answers;
 * - a model that is not pulled gets a 404 naming it, in each API's error shape;
 * - the first request after start waits `loadMs` before its first token, while the model loads.
 */
export interface OllamaOptions {
  /** Refuse requests from a `chrome-extension://` origin, as Ollama does without OLLAMA_ORIGINS. */
  refuseExtensions?: boolean
  /** The models pulled. */
  models?: string[]
  /** How long the first chat waits before its first token (loading the model into memory). */
  loadMs?: number
  /** Answer /api/chat with a 404, as an OpenAI-compatible server that is not Ollama (LM Studio) does. */
  noNative?: boolean
  /** Refuse a `format` schema with a 400, as an Ollama older than 0.5 does. */
  refuseFormat?: boolean
}

/** A reply: text, or native tool calls (Ollama sends each call whole in `message.tool_calls`; its /v1 streams OpenAI `tool_calls` deltas). */
export type OllamaReply = string | { toolCalls: { name: string; arguments: object }[] }

export interface OllamaServer {
  url: string
  /** The OpenAI-compatible base URL, what Ava's Local profile uses. */
  baseUrl: string
  requests: { path: string; origin?: string; body: any }[]
  /** Replies to chats, in order; once empty, `[]`. */
  script(...replies: OllamaReply[]): void
  set(options: OllamaOptions): void
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function startOllamaServer(initial: OllamaOptions = {}): Promise<OllamaServer> {
  let options: OllamaOptions = { models: ['qwen2.5:7b'], ...initial }
  let loaded = false
  let queue: OllamaReply[] = []
  const requests: OllamaServer['requests'] = []

  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0]
    const origin = req.headers.origin
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    const body = raw ? JSON.parse(raw) : null
    requests.push({ path, origin, body })
    if (origin?.startsWith('chrome-extension://') && options.refuseExtensions) {
      res.writeHead(403).end()
      return
    }
    if (origin) res.setHeader('access-control-allow-origin', origin)
    if (req.method === 'OPTIONS') {
      res.setHeader('access-control-allow-headers', '*')
      res.writeHead(204).end()
      return
    }
    const json = (status: number, v: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v))
    const models = options.models ?? []
    if (req.method === 'GET' && path === '/api/tags')
      return json(200, { models: models.map((name) => ({ name, model: name, size: 4_700_000_000 })) })
    if (req.method === 'GET' && path === '/v1/models')
      return json(200, { object: 'list', data: models.map((id) => ({ id, object: 'model', owned_by: 'library' })) })
    const native = path === '/api/chat'
    if (native && options.noNative)
      return res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found') && undefined
    if (req.method !== 'POST' || (!native && path !== '/v1/chat/completions'))
      return json(404, native ? { error: 'not found' } : { error: { message: '404 page not found' } })
    const model = String(body?.model ?? '')
    if (!models.includes(model)) {
      const message = `model "${model}" not found, try pulling it first`
      return json(404, native ? { error: message } : { error: { message, type: 'api_error', param: null, code: null } })
    }
    if (native && options.refuseFormat && body?.format)
      return json(400, { error: 'invalid format: expected "json" or a JSON schema' })
    const reply = queue.shift() ?? '[]'
    const calls = typeof reply === 'string' ? undefined : reply.toolCalls
    const text = typeof reply === 'string' ? reply : ''
    if (!loaded) {
      await sleep(options.loadMs ?? 0)
      loaded = true
    }
    const pieces = text.match(/[\s\S]{1,12}/g) ?? []
    const created = Math.floor(Date.now() / 1000)
    if (native && body.stream === false) {
      return json(200, {
        model,
        created_at: new Date().toISOString(),
        message: { role: 'assistant', content: text },
        done: true,
        done_reason: 'stop',
        prompt_eval_count: 100,
        eval_count: pieces.length,
      })
    }
    if (native && calls) {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' })
      for (const c of calls) {
        res.write(
          `${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: 'assistant', content: '', tool_calls: [{ function: { name: c.name, arguments: c.arguments } }] }, done: false })}\n`,
        )
        await sleep(15)
      }
      res.end(
        `${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 100, eval_count: 10 })}\n`,
      )
      return
    }
    if (native) {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' })
      for (const p of pieces) {
        res.write(
          `${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: 'assistant', content: p }, done: false })}\n`,
        )
        await sleep(15)
      }
      res.end(
        `${JSON.stringify({ model, created_at: new Date().toISOString(), message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 100, eval_count: pieces.length })}\n`,
      )
      return
    }
    if (!body.stream) {
      return json(200, {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created,
        model,
        system_fingerprint: 'fp_ollama',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: pieces.length, total_tokens: 100 + pieces.length },
      })
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_ollama', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
    if (calls) {
      for (const [i, c] of calls.entries()) {
        res.write(
          chunk({
            role: 'assistant',
            tool_calls: [
              {
                index: i,
                id: `call_${i}`,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              },
            ],
          }),
        )
        await sleep(15)
      }
      res.write(chunk({}, 'tool_calls'))
      res.end('data: [DONE]\n\n')
      return
    }
    for (const p of pieces) {
      res.write(chunk({ role: 'assistant', content: p }))
      await sleep(15)
    }
    res.write(chunk({ role: 'assistant', content: '' }, 'stop'))
    res.write(
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created, model, choices: [], usage: { prompt_tokens: 100, completion_tokens: pieces.length, total_tokens: 100 + pieces.length } })}\n\n`,
    )
    res.end('data: [DONE]\n\n')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    script: (...replies) => void (queue = [...replies]),
    set(o) {
      options = { ...options, ...o }
      loaded = false
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
