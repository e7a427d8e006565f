// Builds what the published package exports besides the CLI (package.json `exports`):
//   lib/playwright.js  the Playwright Test fixture (e2e/playwright-test/fixture.ts), `ava-assistant/playwright`
//   lib/mcp.js         the MCP server as a library (src/cli/mcp-api.ts), `ava-assistant/mcp`
//   lib/types/…        their declarations, emitted by TypeScript from the same sources
// Both are one ESM file each for plain Node 20, with the page script `ava run` injects built in,
// so an installed package needs neither TypeScript, esbuild nor src/. @playwright/test (a peer
// dependency) and playwright-core (a dependency) stay outside. Run by `npm run build` and before
// `npm pack` (prepack).
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { buildPageScript } from './page-script.mjs'

const root = resolve(import.meta.dirname, '..')
const out = resolve(root, 'lib')
const pageScript = await buildPageScript()

/** The fixture builds the page script on the fly from source; built, it carries the text instead. */
const prebuiltPageScript = {
  name: 'prebuilt-page-script',
  setup(b) {
    b.onResolve({ filter: /page-script\.mjs$/ }, () => ({ path: 'page-script', namespace: 'ava-prebuilt' }))
    b.onLoad({ filter: /.*/, namespace: 'ava-prebuilt' }, () => ({ contents: `export const buildPageScript = async () => ${JSON.stringify(pageScript)}`, loader: 'js' }))
  },
}

rmSync(out, { recursive: true, force: true })
await build({
  entryPoints: { playwright: resolve(root, 'e2e/playwright-test/fixture.ts'), mcp: resolve(root, 'src/cli/mcp-api.ts') },
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'bundle',
  external: ['playwright-core', '@playwright/test'],
  plugins: [prebuiltPageScript],
  define: { __AVA_PAGE_SCRIPT__: JSON.stringify(pageScript) },
  banner: {
    // semver is CommonJS; in an ESM bundle its require() calls need a real require (as bin/ava.js).
    js: "import { createRequire as __avaCreateRequire } from 'node:module';\nconst require = __avaCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
})

// Declarations from the sources themselves: the entry files' d.ts import their neighbours' as the
// sources do, so they keep their relative layout under lib/types/.
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
const entries = ['e2e/playwright-test/fixture.ts', 'src/cli/mcp-api.ts']
const flags = ['--declaration', '--emitDeclarationOnly', '--outDir', 'lib/types', '--rootDir', '.', '--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'Bundler', '--strict', '--skipLibCheck', '--esModuleInterop', '--resolveJsonModule', '--types', 'node,chrome']
try {
  execFileSync(process.execPath, [tsc, ...flags, ...entries], { cwd: root, stdio: 'pipe' })
} catch (e) {
  // Type errors do not stop the emit; a missing file does.
  const text = String(e.stdout ?? '') + String(e.stderr ?? '')
  if (/error TS(?!2304|2339|2580)/.test(text)) {
    console.error(text)
    process.exit(1)
  }
}
console.log(`built ${out}/playwright.js, ${out}/mcp.js and their types`)
