/**
 * The flows page bundle for tests: an IIFE on `window.__avaFlows` (see entry.ts), built once per
 * process with esbuild, as e2e/executor/bundle.ts does for the executor.
 */
import { build } from 'esbuild'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'

const entry = resolve(import.meta.dirname, 'entry.ts')
let cached: Promise<string> | undefined

export function flowsBundle(): Promise<string> {
  cached ??= build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName: '__avaFlows',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_DEBUG': 'undefined' },
  }).then((r) => r.outputFiles[0].text)
  return cached
}

export async function injectFlows(page: Page): Promise<void> {
  if (!(await page.evaluate(() => '__avaFlows' in window))) await page.addScriptTag({ content: await flowsBundle() })
}
