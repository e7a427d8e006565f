// The page-side script `ava run` injects into every document (src/dom/recorder/page-api.ts as one
// IIFE publishing a page global): built into bin/ava.js by scripts/build-cli.mjs, and built on
// the fly by the Playwright Test fixture (src/playwright/fixture.ts), so both run the same code.
import { build } from 'esbuild'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
/** What `ava run` injects into every document: the step runner and the registry's page port. */
const kPageEntry = resolve(root, 'src/dom/recorder/page-api.ts')
/** The page global the script publishes; src/cli/run.ts reads it as kGlobal. */
export const kPageGlobal = '__avaRun'

/** The script's text, ready for Playwright's addInitScript. */
export async function buildPageScript() {
  const page = await build({
    entryPoints: [kPageEntry],
    bundle: true,
    format: 'iife',
    globalName: kPageGlobal,
    target: 'chrome120',
    write: false,
    // Parsed in every document a run opens; minified as the extension's content script is.
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    // semver reads process.env.NODE_DEBUG when `process` exists; the page has none.
    define: { 'process.env.NODE_DEBUG': 'undefined' },
  })
  // Init scripts may run inside a function: publish the global explicitly.
  return `${page.outputFiles[0].text}\nglobalThis.${kPageGlobal} = ${kPageGlobal};`
}
