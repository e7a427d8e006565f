import { createApp, type Component } from 'vue'
import { createPinia } from 'pinia'
import type { LanguagePref } from '../core/settings'
import { uiPrefsStore } from '../storage/settings'
import { detectLocale, i18n, setLocale, type Locale } from './i18n'

/** The language a preference means here: `auto` follows the browser. */
export function resolveLocale(pref: LanguagePref, browserLang?: string): Locale {
  return pref === 'auto' ? detectLocale(browserLang) : pref
}

async function apply(pref: LanguagePref): Promise<void> {
  const l = resolveLocale(pref)
  await setLocale(l)
  if (i18n.global.locale.value === l) document.documentElement.lang = l
}

/**
 * What every UI entry (panel, popup, options) installs. The language is the person's choice
 * (`auto` follows the browser), and changes whenever any context changes it (storage.onChanged),
 * so every open UI follows the options page live. The app mounts once that language's strings are
 * loaded (one storage read and a local chunk, a few ms), so a Chinese UI does not flash English.
 */
export function setupApp(root: Component, selector = '#app') {
  const app = createApp(root)
  app.use(createPinia())
  app.use(i18n)
  const first = uiPrefsStore.get().then(
    (p) => apply(p.language),
    () => apply('auto'),
  )
  uiPrefsStore.watch((p) => void apply(p.language))
  void first.finally(() => app.mount(selector))
  return app
}
