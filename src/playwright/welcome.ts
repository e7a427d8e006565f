/**
 * Closes the welcome page a fresh install opens (src/background/first-run.ts). It opens as the
 * window's active tab, and in headless Chromium a tab behind it still reports itself visible but
 * gets two animation frames a second, in the page and in the panel frame: every Playwright click
 * there then waits about two seconds for the element to be "stable". A person switches to the tab
 * they use; a test does that by closing the welcome page.
 */
export async function closeWelcomePage(
  context: { pages(): { url(): string; close(): Promise<void> }[] },
  extensionId: string,
): Promise<void> {
  const url = `chrome-extension://${extensionId}/src/welcome/index.html`
  // The install event opens it a moment after the worker starts; a profile that was installed
  // before never opens it.
  const deadline = Date.now() + 5_000
  while (Date.now() < deadline) {
    const welcome = context.pages().find((p) => p.url() === url)
    if (welcome) return welcome.close()
    await new Promise((r) => setTimeout(r, 50))
  }
}
