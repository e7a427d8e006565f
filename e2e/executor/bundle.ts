/**
 * The executor bundled for injection into a page: an IIFE that sets `window.__avaExec` (see
 * entry.ts). Built once per process with esbuild; the bench uses the same helper.
 */
import { build } from 'esbuild'
import { resolve } from 'node:path'
import type { Page, Frame } from 'playwright-core'

export const globalName = '__avaExec'
const entry = resolve(import.meta.dirname, 'entry.ts')

let cached: Promise<string> | undefined

export function executorBundle(): Promise<string> {
  cached ??= build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName,
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
    // semver reads process.env.NODE_DEBUG when `process` exists; the page has none.
    define: { 'process.env.NODE_DEBUG': 'undefined' },
  }).then((r) => r.outputFiles[0].text)
  return cached
}

/** Injects the bundle into the page (or frame) unless it is already there. */
export async function inject(page: Page | Frame): Promise<void> {
  const has = await page.evaluate((g) => g in window, globalName)
  if (!has) await page.addScriptTag({ content: await executorBundle() })
}
