import { createApp, type Component } from 'vue'
import { createPinia } from 'pinia'
import type { LanguagePref } from '../core/settings'
import { uiPrefsStore } from '../storage/settings'
import { locale, detectLocale, type Locale } from './i18n'

/** The language a preference means here: `auto` follows the browser. */
export function resolveLocale(pref: LanguagePref, browserLang?: string): Locale {
  return pref === 'auto' ? detectLocale(browserLang) : pref
}

function apply(pref: LanguagePref) {
  locale.value = resolveLocale(pref)
  document.documentElement.lang = locale.value
}

/**
 * What every UI entry (panel, popup, options) installs. The language starts from the browser's
 * and switches to the person's override as soon as it is read, and again whenever any context
 * changes it (storage.onChanged), so every open UI follows the options page live.
 */
export function setupApp(root: Component, selector = '#app') {
  const app = createApp(root)
  app.use(createPinia())
  apply('auto')
  void uiPrefsStore.get().then((p) => apply(p.language), () => undefined)
  uiPrefsStore.watch((p) => apply(p.language))
  app.mount(selector)
  return app
}
