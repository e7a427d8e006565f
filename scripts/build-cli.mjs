// Builds the `ava` CLI (src/cli/ava.ts) into bin/ava.js, one file that runs on plain Node 20 with
// playwright-core as its only installed dependency (package.json `dependencies`): yaml, zod, semver
// and the page-side script `ava run` injects are inside, so the installed CLI needs neither
// TypeScript, esbuild nor src/. The built-in packs ship beside it (package.json `files`: actions/).
// Run after `vite build` (npm run build), before `npm pack` (prepack), or on its own.
import { build } from 'esbuild'
import { chmodSync } from 'node:fs'
import { resolve } from 'node:path'
import { buildPageScript } from './page-script.mjs'

const root = resolve(import.meta.dirname, '..')
// AVA_CLI_OUTFILE: a test's own copy, so parallel test runs never rebuild the file another is running.
const outfile = resolve(root, process.env.AVA_CLI_OUTFILE ?? 'bin/ava.js')
// What `ava run` injects into every document (shared with the Playwright Test fixture).
const pageScript = await buildPageScript()
// The native host `ava mcp install` copies out of the package (src/cli/native-host-main.ts): a few
// KB of Node, kept inside bin/ava.js as text.
const host = await build({
  entryPoints: [resolve(root, 'src/cli/native-host-main.ts')],
  write: false,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
})
const nativeHost = host.outputFiles[0].text

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
  define: { __AVA_PAGE_SCRIPT__: JSON.stringify(pageScript), __AVA_NATIVE_HOST__: JSON.stringify(nativeHost) },
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
