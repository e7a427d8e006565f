import browser from 'webextension-polyfill'

/** Page navigation of the popup, kept out of components (STYLE.md: no raw extension calls there). */
export function openOptions(): void {
  void browser.runtime.openOptionsPage()
}

/** The manager in a full tab: a file chooser closes a real popup on some platforms. */
export function openInTab(): void {
  void browser.tabs.create({ url: browser.runtime.getURL('src/popup/index.html') })
}
