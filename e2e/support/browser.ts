import { chromium, type BrowserContext, type Browser, type Worker } from 'playwright-core'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

export const chromiumPath = process.env.AVA_CHROMIUM ?? '/usr/bin/chromium'
export const distDir = process.env.AVA_DIST ?? resolve(import.meta.dirname, '../../dist')

/** Flags every Chromium we start needs on these machines (no network beyond loopback, root). */
export const baseArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]

/** A plain headless Chromium, for page-side tests that inject our bundles themselves. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: baseArgs })
}

export interface ExtensionSession {
  context: BrowserContext
  worker: Worker
  extensionId: string
  close(): Promise<void>
}

/** Chromium with the built extension in dist/ loaded, as a person would have it. */
export async function launchWithExtension(opts: { headless?: boolean; dist?: string } = {}): Promise<ExtensionSession> {
  const dist = opts.dist ?? distDir
  if (!existsSync(resolve(dist, 'manifest.json'))) {
    throw new Error(`No built extension in ${dist}: run \`npm run build\` first.`)
  }
  const context = await chromium.launchPersistentContext('', {
    executablePath: chromiumPath,
    headless: opts.headless ?? true,
    args: [...baseArgs, `--disable-extensions-except=${dist}`, `--load-extension=${dist}`],
    viewport: { width: 1280, height: 800 },
  })
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }))
  const extensionId = new URL(worker.url()).host
  return { context, worker, extensionId, close: () => context.close() }
}
