/**
 * The main-world listener script (src/content/listeners-main.ts) bundled as the extension runs it
 * at document_start, for benches that load pages outside the extension: its hints are what makes
 * a `<span>` with a click handler a candidate (dom/observe/listeners.ts).
 */
import { build } from 'esbuild'
import { resolve } from 'node:path'

let listenersMain: Promise<string> | undefined
export function listenersMainScript(): Promise<string> {
  listenersMain ??= build({
    entryPoints: [resolve(import.meta.dirname, '../../src/content/listeners-main.ts')],
    bundle: true,
    target: 'chrome120',
    write: false,
    minify: true,
    logLevel: 'silent',
  }).then((r) => r.outputFiles[0].text)
  return listenersMain
}
