/**
 * The Observe engine bundled for injection into a page: an IIFE that sets `window.__avaObserve`
 * (see entry.ts). Built once per process with esbuild and cached; the bench uses the same helper.
 */
import { build } from 'esbuild'
import { resolve } from 'node:path'

export const entry = resolve(import.meta.dirname, 'entry.ts')
/** The global the bundle assigns its exports to. */
export const globalName = '__avaObserve'

let cached: Promise<string> | undefined

export function observeBundle(): Promise<string> {
  cached ??= build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName,
    target: 'chrome120',
    write: false,
    minify: false,
    logLevel: 'silent',
  }).then((r) => r.outputFiles[0].text)
  return cached
}
