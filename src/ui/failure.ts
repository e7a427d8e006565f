import { t, type MessageKey } from './i18n'
import en from './locales/en'

/**
 * An error from the background or the channel, in the UI language. The background sends a code,
 * its parameters and an English sentence (for logs and the CLI); a code with a `failure.<code>`
 * message is said from the locale, anything else keeps its own words.
 */
export function failureText(e: unknown): string {
  const x = (typeof e === 'object' && e !== null ? e : {}) as { code?: unknown; message?: unknown; params?: unknown }
  const key = `failure.${String(x.code)}`
  if (typeof x.code === 'string' && key in en) {
    const params = typeof x.params === 'object' && x.params !== null ? (x.params as Record<string, string | number>) : {}
    return t(key as MessageKey, params)
  }
  return typeof x.message === 'string' ? x.message : String(e)
}

/**
 * Why Test connection or the model list failed, in the UI language; null for a code without a
 * sentence of ours (the provider's message is then all there is, and is shown as it came).
 */
export function connectionFailure(error: { code: string }): string | null {
  const key = `options.testError.${error.code}`
  return key in en ? t(key as MessageKey) : null
}
