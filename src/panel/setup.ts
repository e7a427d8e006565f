import browser from 'webextension-polyfill'
import { ref } from 'vue'
import { send, type SetupStatus } from '../messaging'

/**
 * First run, as the panel sees it: what is missing before a request can be answered.
 * Asked again before every request and whenever the panel gets focus, since the person sets Ava
 * up in another tab while this one stays open.
 */
export function useSetup() {
  const status = ref<SetupStatus | null>(null)
  async function refresh(): Promise<SetupStatus | null> {
    try {
      status.value = await send('panel→bg:setup.status', {})
    } catch {
      // An unanswered question must not block the person: the request goes out and any error names the URL.
    }
    return status.value
  }
  return { status, refresh }
}

/** The welcome page, in a tab of its own: the panel is a frame on someone else's page. */
export function openSetup(): void {
  void browser.tabs.create({ url: browser.runtime.getURL('src/welcome/index.html') })
}
