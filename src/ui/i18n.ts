import { ref } from 'vue'
import { createI18n } from 'vue-i18n'
import en from '../core/locales/en'

// Every UI string lives in src/core/locales/<locale>.ts, one flat object of dotted keys per locale
// (a meta-test checks every locale has every key). vue-i18n formats them: `{name}` placeholders,
// plurals as `'{n} step | {n} steps'`, picked from `n` (or `count`) by vue-i18n itself.
// English is bundled; every other locale is its own chunk, loaded the first time it is asked for.

export const kLocales = ['en', 'zh-CN'] as const
export type Locale = (typeof kLocales)[number]
export type MessageKey = keyof typeof en
export type Messages = Record<MessageKey, string>

const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Messages }>> = {
  'zh-CN': () => import('../core/locales/zh-CN'),
}

export function detectLocale(lang = globalThis.navigator?.language ?? 'en'): Locale {
  return /^zh/i.test(lang) ? 'zh-CN' : 'en'
}

/** The language a UI asked for; `i18n.global.locale` follows once its messages are loaded. */
export const locale = ref<Locale>(detectLocale())

/**
 * A flat table is read as it is written: the whole dotted key is the key. vue-i18n's default
 * resolver walks `a.b` as nested objects, and its `flatJson` option nests the table, where
 * `step` and `step.ok` cannot both be messages.
 */
function resolveFlat(table: unknown, key: string): string | null {
  const value = (table as Record<string, unknown>)[key]
  return typeof value === 'string' ? value : null
}

// vue-i18n 10+ compiles messages to an AST and interprets it (its "JIT compilation", always on in
// 11), so the full build needs no eval or new Function under the extension pages' CSP.
export const i18n = createI18n({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  messages: { en } as Record<string, Messages>,
  messageResolver: resolveFlat,
  // A Chinese UI shows English for a key not translated yet; the meta-test, not the console, says so.
  missingWarn: false,
  fallbackWarn: false,
  // Our messages are text, rendered escaped by Vue; an angle bracket in one is not HTML.
  warnHtmlMessage: false,
})

const loading = new Map<Locale, Promise<void>>()

/** Loads `l`'s messages (once) and switches every UI string to it; a chunk that fails to load leaves English (tried again next time). */
export function setLocale(l: Locale): Promise<void> {
  locale.value = l
  let ready = loading.get(l)
  if (!ready) {
    ready = l === 'en' ? Promise.resolve() : loaders[l]().then((m) => i18n.global.setLocaleMessage(l, m.default))
    ready = ready.catch(() => {
      loading.delete(l)
    })
    loading.set(l, ready)
  }
  return ready.then(() => {
    // Only the latest request wins: a slow load must not switch back to a language changed since.
    if (locale.value === l) i18n.global.locale.value = l
  })
}

const translate = i18n.global.t as (key: string, named: Record<string, unknown>) => string

/** The UI string `key` in the current language, with `{placeholders}` filled from `params`. */
export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  return translate(key, params)
}

/** A pack's or action's own description in the UI language: its `description_zh` in Chinese. */
export function described(x: { description: string; descriptionZh?: string }): string {
  return i18n.global.locale.value === 'zh-CN' && x.descriptionZh ? x.descriptionZh : x.description
}

/**
 * A pack's deprecation notice. The author's `deprecated_message` is English and
 * `deprecated_message_zh` Chinese; without one in the UI language Ava says what replaces the
 * action (an alias), or only that it is deprecated, never the other language's sentence.
 */
export function deprecationNote(d: { action: string; message?: string; messageZh?: string; use?: string }): string {
  const message = i18n.global.locale.value === 'zh-CN' ? d.messageZh : d.message
  if (message) return t('popup.deprecatedNote', { action: d.action, message })
  if (d.use) return t('popup.deprecatedUse', { action: d.action, target: d.use })
  return t('popup.deprecatedOnly', { action: d.action })
}

/**
 * A sentence core sent as a key (`Msg`), in the UI language. A `<name>Key` parameter names another
 * of the locale's messages, said in its place as `<name>` (a key this UI lacks as its last part: a
 * role or an action word the table has no word for); a `<name>Zh` parameter is `<name>` in the
 * Chinese UI; a `<name>Lines` parameter is a JSON list of messages, each said this way and joined
 * as `<name>` (a plan's lines, core/gate/plan.ts `planAsk`), in place of its English.
 */
export function sayMsg(m: { key: string; params?: Record<string, string | number> }): string {
  const zh = i18n.global.locale.value === 'zh-CN'
  const params: Record<string, string | number> = {}
  const all = m.params ?? {}
  for (const [k, v] of Object.entries(all)) {
    if (k.endsWith('Key')) params[k.slice(0, -3)] = sayKey(String(v))
    else if (k.endsWith('Lines')) continue
    else if (!k.endsWith('Zh')) params[k] = zh ? (all[`${k}Zh`] ?? v) : v
  }
  for (const [k, v] of Object.entries(all))
    if (k.endsWith('Lines')) {
      const lines = linesOf(v)
      if (lines) params[k.slice(0, -5)] = lines.map(sayMsg).join(t('common.listSeparator'))
    }
  return t(m.key as MessageKey, params)
}

const sayKey = (key: string) => (key in en ? t(key as MessageKey) : (key.split('.').at(-1) ?? key))

/** A `…Lines` parameter's messages; null when it is not a list of them (its English is said instead). */
function linesOf(v: string | number): { key: string; params?: Record<string, string | number> }[] | null {
  try {
    const out: unknown = JSON.parse(String(v))
    return Array.isArray(out) && out.every((m) => typeof (m as { key?: unknown })?.key === 'string') ? out : null
  } catch {
    return null
  }
}
