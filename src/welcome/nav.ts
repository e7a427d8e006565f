import browser from 'webextension-polyfill'

/** Extension navigation of the welcome page, kept out of its component (STYLE.md). */
export const logoUrl = (): string => browser.runtime.getURL('icons/48.png')

export function openOptions(): void {
  void browser.runtime.openOptionsPage()
}
