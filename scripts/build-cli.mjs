// Bundles the `ava` CLI (src/cli/ava.ts) into bin/ava.js, a single file that runs on plain
// Node 20: every dependency (yaml, zod, semver) is inside, so `npx ava` needs no TypeScript.
// Run after `vite build` (npm run build) or on its own: node scripts/build-cli.mjs
import { build } from 'esbuild'
import { chmodSync } from 'node:fs'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const outfile = resolve(root, 'bin/ava.js')

await build({
  entryPoints: [resolve(root, 'src/cli/ava.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundle packages too, so the file works wherever it is copied (package.json's bin).
  packages: 'bundle',
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
