import browser from 'webextension-polyfill'
import { handle } from '../messaging'
import { setupStatus } from '../core/setup'
import { settingsStore } from '../storage/settings'
import { firstRunStore } from '../storage/setup'

export const kWelcomePath = 'src/welcome/index.html'

/**
 * First run: a fresh install opens the welcome page, where the person picks a
 * provider and tests it; the panel asks what is still missing before it sends a request.
 */
export function watchFirstRun(): void {
  browser.runtime.onInstalled.addListener((details) => {
    // Only a real install: an update or a Chrome update must not open a tab the person never asked for.
    if (details.reason === 'install')
      void browser.tabs.create({ url: browser.runtime.getURL(kWelcomePath) }).catch(() => undefined)
  })

  // The panel never sees settings (they hold keys): it gets only what is missing and where requests go.
  handle('panel→bg:setup.status', ['panel'], async () =>
    setupStatus(await settingsStore.get(), (await firstRunStore.get()).answeredAt !== undefined),
  )
}
