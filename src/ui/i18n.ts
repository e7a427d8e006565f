import { ref } from 'vue'
import en from './locales/en'
import zhCN from './locales/zh-CN'

/** Every UI string in English and Simplified Chinese. A meta-test checks both have every key. */
export const messages = { en, 'zh-CN': zhCN } as const

export type Locale = keyof typeof messages
export type MessageKey = keyof (typeof messages)['en']

export function detectLocale(lang = globalThis.navigator?.language ?? 'en'): Locale {
  return /^zh/i.test(lang) ? 'zh-CN' : 'en'
}

export const locale = ref<Locale>(detectLocale())

export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  const table = messages[locale.value] as Record<string, string>
  const text = table[key] ?? messages.en[key] ?? key
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`))
}
