// The model over the AI SDK, where the service worker and Node both reach it: the provider's model
// object, the "Test connection" request, and what a failed call means for a person. The
// extension's background (src/background/llm.ts) and `ava doctor` (src/cli/doctor.ts) send the same
// request and read its failure the same way.
import { APICallError, generateText, type LanguageModel } from 'ai'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { AvaError } from '../core/errors'
import { kProviders } from '../core/providers'
import type { LlmSettings } from '../core/settings'

/** The providers' own model interface (specification v3), which `streamCompletion` calls directly. */
export type Model = Extract<LanguageModel, { specificationVersion: 'v3' }>

/** Builds the AI SDK model for the configured provider. The key stays in this (background) context. */
export function createModel(llm: LlmSettings): Model {
  const baseURL = llm.baseUrl.replace(/\/+$/, '')
  if (llm.provider === 'anthropic') {
    const provider = createAnthropic({
      baseURL,
      ...(llm.authStyle === 'bearer' ? { authToken: llm.apiKey || undefined } : { apiKey: llm.apiKey || 'none' }),
      headers: kProviders.anthropic.headers,
    })
    return provider(llm.model)
  }
  const provider = createOpenAICompatible({
    name: llm.provider === 'local' ? 'local' : 'openai-compatible',
    baseURL,
    apiKey: llm.apiKey || undefined,
    headers: kProviders[llm.provider].headers,
    includeUsage: true,
    supportsStructuredOutputs: true,
  })
  return provider.chatModel(llm.model)
}

/**
 * The one-shot request of "Test connection": a one-word reply, no retries, the profile's timeout.
 * Throws what `classifyLlmError` makes of a failure.
 */
export async function requestTest(llm: LlmSettings, signal: AbortSignal): Promise<{ reply: string; model: string }> {
  try {
    const r = await generateText({
      model: createModel(llm),
      prompt: 'Reply with the single word OK.',
      maxOutputTokens: 8,
      maxRetries: 0,
      abortSignal: AbortSignal.any([signal, AbortSignal.timeout(llm.requestTimeoutMs)]),
    })
    return { reply: r.text, model: r.response.modelId || llm.model }
  } catch (e) {
    throw classifyLlmError(e, llm.baseUrl, llm)
  }
}

/**
 * Maps whatever the SDK or fetch threw to an error a person can act on. An unreachable model names
 * the URL tried: the SDK's own request URL when it has one, else `baseUrl`; it is
 * also in the error's details (`url`) for a localised message.
 */
export function classifyLlmError(
  e: unknown,
  baseUrl?: string,
  llm?: Pick<LlmSettings, 'provider' | 'model'>,
): AvaError {
  if (e instanceof AvaError) return e
  const err = e as Error & { cause?: unknown }
  const local = llm?.provider === 'local'
  if (APICallError.isInstance(e)) {
    const status = e.statusCode ?? 0
    const detail = providerMessage(e.responseBody) ?? e.message
    // Ollama refuses origins it was not told about (OLLAMA_ORIGINS) with a bare 403, and names a
    // model it does not have with a 404 (docs/settings.md, "Local models").
    if (local && status === 403)
      return new AvaError(
        'PROVIDER_ERROR',
        `The local model server refused Ava's origin (HTTP 403). Start Ollama with ${kOllamaOrigins} and try again.`,
        {
          status,
          msg: { key: 'outcome.error.LOCAL_ORIGIN', params: { server: 'Ollama', setting: kOllamaOrigins } },
          recovery: ['retry', 'options'],
        },
      )
    if (local && status === 404 && /model/i.test(detail))
      return new AvaError(
        'PROVIDER_ERROR',
        `The model "${llm!.model}" is not on the local server (HTTP 404): run \`ollama pull ${llm!.model}\`, then try again.`,
        {
          status,
          msg: {
            key: 'outcome.error.LOCAL_NOT_PULLED',
            params: { model: llm!.model, command: `ollama pull ${llm!.model}` },
          },
          recovery: ['retry', 'options'],
        },
      )
    if (status === 401 || status === 403)
      return new AvaError('TOKEN_INVALID', `The provider refused the API key (HTTP ${status}): ${detail}`, { status })
    if (status === 429)
      return new AvaError('RATE_LIMITED', `The provider is rate-limiting requests (HTTP 429): ${detail}`, { status })
    if (status === 404)
      return new AvaError('PROVIDER_ERROR', `The endpoint or model was not found (HTTP 404): ${detail}`, { status })
    if (status >= 500)
      return new AvaError('PROVIDER_ERROR', `The provider failed (HTTP ${status}): ${detail}`, { status })
    if (status >= 200 && status < 300)
      return new AvaError('NETWORK', `The connection to the provider dropped: ${detail}`, { status })
    if (status)
      return new AvaError('PROVIDER_ERROR', `The provider rejected the request (HTTP ${status}): ${detail}`, { status })
    const url = e.url || baseUrl
    if (local && url) return localDown(url, detail)
    return new AvaError(
      'NETWORK',
      url ? `Could not reach the provider at ${url}: ${detail}` : `Could not reach the provider: ${detail}`,
      url ? { url } : undefined,
    )
  }
  const name = err?.name ?? ''
  if (name === 'AbortError') return new AvaError('UNKNOWN', 'Stopped.')
  if (name === 'AI_JSONParseError' || name === 'AI_TypeValidationError' || /JSON/i.test(name)) {
    return new AvaError(
      'PROVIDER_ERROR',
      `The provider sent a response Ava could not read: ${err.message.slice(0, 200)}`,
    )
  }
  if (err instanceof TypeError || /fetch|network|Failed to fetch/i.test(err?.message ?? '')) {
    if (local && baseUrl) return localDown(baseUrl, err.message)
    return new AvaError(
      'NETWORK',
      baseUrl
        ? `Could not reach the provider at ${baseUrl}: ${err.message}`
        : `Could not reach the provider: ${err.message}`,
      baseUrl ? { url: baseUrl } : undefined,
    )
  }
  return new AvaError('UNKNOWN', err?.message ?? String(e))
}

const kOllamaOrigins = 'OLLAMA_ORIGINS=chrome-extension://*' // Ollama answers only origins listed there (its FAQ, "allow additional web origins")

/** Nothing listens at a local model's address: Ollama (or LM Studio) is not running. */
function localDown(url: string, detail: string): AvaError {
  return new AvaError(
    'NETWORK',
    `Nothing answered at ${url}: the local model server is not running. Start Ollama (\`ollama serve\`) and try again. (${detail})`,
    { url, msg: { key: 'outcome.error.LOCAL_DOWN', params: { url, server: 'Ollama', command: 'ollama serve' } } },
  )
}

export function providerMessage(body: string | undefined): string | undefined {
  if (!body) return undefined
  try {
    const j = JSON.parse(body) as { error?: { message?: string } | string; message?: string }
    if (typeof j.error === 'string') return j.error
    return j.error?.message ?? j.message ?? body.slice(0, 200)
  } catch {
    return body.slice(0, 200)
  }
}
