import { i18n, t, type MessageKey } from './i18n'
import en from '../core/locales/en'
import { isFailureCode, kFailures, type FailureCode, type FailureSpec } from '../core/failure'

/** What a person reads about a failure: one sentence in the UI language, the technical part behind Details. */
export interface Failure {
  text: string
  details?: string
}

/**
 * Parameters in a parser's or a library's own words (zod's issue list, JSON.parse's reason): they
 * are English whatever the UI language, so they go behind Details and never into the sentence.
 */
const kTechnical = ['issues', 'reason'] as const

/** Settings fields by the last name in their path, as the options page labels them. */
const kFieldLabels: Record<string, MessageKey> = {
  provider: 'options.provider',
  baseUrl: 'options.baseUrl',
  authStyle: 'options.authStyle',
  apiKey: 'options.apiKey',
  model: 'options.model',
  requestTimeoutMs: 'options.timeout',
  stepLimit: 'options.stepLimit',
  useCache: 'options.useCache',
  confirm: 'options.confirm',
  allowDomains: 'options.allowDomains',
  denyDomains: 'options.denyDomains',
  history: 'options.history',
  profiles: 'options.profiles',
  vault: 'options.vault',
}

/** "profiles.0.baseUrl, agent.stepLimit" → "Base URL and Step limit", in the UI language; unknown paths stay as they are. */
function fieldNames(paths: string): string {
  const names = paths.split(',').map((path) => {
    const named = path
      .trim()
      .split('.')
      .reverse()
      .find((seg) => seg in kFieldLabels)
    return t('failure.field', { name: named ? t(kFieldLabels[named]) : path.trim() })
  })
  return new Intl.ListFormat(i18n.global.locale.value, { type: 'conjunction' }).format([...new Set(names)])
}

/**
 * An error from the background or the channel, in the UI language. The background sends a code,
 * its parameters and an English sentence (for logs and the CLI); a code with a `failure.<code>`
 * message is said from the locale, anything else keeps its own words.
 */
export function failure(e: unknown): Failure {
  const x = (typeof e === 'object' && e !== null ? e : {}) as { code?: unknown; message?: unknown; params?: unknown }
  // A code of the failure list (src/core/failure.ts) is said by its sentence: a refusal's own
  // (`plain`), else the run's; the English stays for a code from elsewhere.
  const say = isFailureCode(x.code) ? (kFailures[x.code].say as FailureSpec['say']) : undefined
  const key = say?.plain ?? say?.run
  if (key && key in en) {
    const params = {
      ...(typeof x.params === 'object' && x.params !== null ? (x.params as Record<string, string | number>) : {}),
    }
    // A run's or a step's failure said by its code: the English behind it (the page's words) is the detail.
    const own =
      (!say?.plain || (kFailures[x.code as FailureCode] as FailureSpec).details) && typeof x.message === 'string'
        ? [x.message]
        : []
    const details = [...own, ...kTechnical.map((k) => params[k])].filter((v) => v !== undefined && v !== '').join('\n')
    if (typeof params.fields === 'string') params.fields = fieldNames(params.fields)
    return { text: t(key as MessageKey, params), ...(details ? { details } : {}) }
  }
  return { text: typeof x.message === 'string' ? x.message : String(e) }
}

export const failureText = (e: unknown): string => failure(e).text

/**
 * Why Test connection or the model list failed, in the UI language; null for a code without a
 * sentence of ours (the provider's message is then all there is, and is shown as it came).
 */
export function connectionFailure(error: { code: string; params?: Record<string, string | number> }): string | null {
  const own = error.params?.msg
  if (typeof own === 'string' && own in en) return t(own as MessageKey, error.params)
  const key = isFailureCode(error.code) ? (kFailures[error.code].say as FailureSpec['say']).test : undefined
  return key && key in en ? t(key as MessageKey) : null
}
