import { createApp, type Component } from 'vue'
import { createPinia } from 'pinia'
import { locale, detectLocale } from './i18n'

/** What every UI entry (panel, popup, options) installs. */
export function setupApp(root: Component, selector = '#app') {
  const app = createApp(root)
  app.use(createPinia())
  locale.value = detectLocale()
  document.documentElement.lang = locale.value
  app.mount(selector)
  return app
}
