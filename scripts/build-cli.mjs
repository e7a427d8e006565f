// Builds the `ava` CLI (src/cli/ava.ts) into bin/ava.js, one file that runs on plain Node 20 with
// playwright-core as its only installed dependency (package.json `dependencies`): yaml, zod, semver
// and the page-side script `ava run` injects are inside, so the installed CLI needs neither
// TypeScript, esbuild nor src/. The built-in packs ship beside it (package.json `files`: actions/).
// Run after `vite build` (npm run build), before `npm pack` (prepack), or on its own.
import { build } from 'esbuild'
import { chmodSync } from 'node:fs'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const outfile = resolve(root, 'bin/ava.js')
/** What `ava run` injects into every document: the step runner and the registry's page port. */
const kPageEntry = resolve(root, 'src/dom/recorder/page-api.ts')
/** The page global the script publishes; src/cli/run.ts reads it as kGlobal. */
const kPageGlobal = '__avaRun'

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
const pageScript = `${page.outputFiles[0].text}\nglobalThis.${kPageGlobal} = ${kPageGlobal};`

await build({
  entryPoints: [resolve(root, 'src/cli/ava.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundle packages too, so the file works wherever it is installed; playwright-core stays out
  // (it is large, and the one runtime dependency).
  packages: 'bundle',
  external: ['playwright-core'],
  define: { __AVA_PAGE_SCRIPT__: JSON.stringify(pageScript) },
  banner: {
    // semver is CommonJS; in an ESM bundle its require() calls need a real require.
    js: "#!/usr/bin/env node\nimport { createRequire as __avaCreateRequire } from 'node:module';\nconst require = __avaCreateRequire(import.meta.url);",
  },
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
})
chmodSync(outfile, 0o755)
console.log(`built ${outfile}`)
