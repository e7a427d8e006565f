// Builds what the published package exports besides the CLI (package.json `exports`):
//   lib/playwright.cjs  the Playwright Test fixture (src/playwright/fixture.ts), `ava-assistant/playwright`
//   lib/mcp.cjs         the MCP server as a library (src/cli/mcp/api.ts), `ava-assistant/mcp`
//   lib/*.d.cts         their declarations, one self-contained file each
// One CommonJS file per entry, which both formats load: require() in a project made by `npm init -y`
// (and Playwright's loader, which compiles a spec there to CommonJS), import in an ES module project
// (Node reads the export names esbuild writes at the end of the file). Two copies, one per format,
// would let a project load two fixtures that do not know each other. The page script `ava run`
// injects is built in, so an installed package needs neither TypeScript, esbuild nor src/;
// @playwright/test (a peer dependency) and playwright-core (a dependency) stay outside.
// Run by `npm run build` and, when the sources changed since, before `npm pack` (prepack).
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildPageScript } from './page-script.mjs'

const root = resolve(import.meta.dirname, '..')
const out = resolve(root, 'lib')
const entries = { playwright: 'src/playwright/fixture.ts', mcp: 'src/cli/mcp/api.ts' }
/** What a shipped declaration may import: the package's dependency and its optional peer. */
const kTypeImports = new Set(['@playwright/test', 'playwright-core'])
const pageScript = await buildPageScript()

/** The fixture builds the page script on the fly from source; built, it carries the text instead. */
const prebuiltPageScript = {
  name: 'prebuilt-page-script',
  setup(b) {
    b.onResolve({ filter: /page-script\.mjs$/ }, () => ({ path: 'page-script', namespace: 'ava-prebuilt' }))
    b.onLoad({ filter: /.*/, namespace: 'ava-prebuilt' }, () => ({
      contents: `export const buildPageScript = async () => ${JSON.stringify(pageScript)}`,
      loader: 'js',
    }))
  },
}

rmSync(out, { recursive: true, force: true })
await build({
  entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, resolve(root, file)])),
  outdir: out,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'bundle',
  external: ['playwright-core', '@playwright/test'],
  plugins: [prebuiltPageScript],
  // import.meta is ESM's: the sources that ask where they are (src/cli/sources.ts) get this file's URL.
  define: { __AVA_PAGE_SCRIPT__: JSON.stringify(pageScript), 'import.meta.url': '__avaFileUrl' },
  banner: { js: "const __avaFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  logLevel: 'warning',
})

// Declarations: TypeScript emits each entry's from its source; the entry files declare every type
// their exports mention (or take it from @playwright/test), so that one file is the whole API. It is
// shipped as .d.cts, the format of the code beside it, and refused if it imports anything else: a
// neighbour the package does not ship, or a package a project need not have (zod, the MCP SDK).
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
const tmp = mkdtempSync(join(tmpdir(), 'ava-types-'))
// --noCheck: emit only (2 s, not 20); `npm run typecheck` checks these files with the rest.
const flags = [
  '--declaration',
  '--emitDeclarationOnly',
  '--noCheck',
  '--outDir',
  tmp,
  '--rootDir',
  '.',
  '--target',
  'ES2022',
  '--module',
  'ESNext',
  '--moduleResolution',
  'Bundler',
  '--strict',
  '--skipLibCheck',
  '--esModuleInterop',
  '--resolveJsonModule',
  '--types',
  'node,chrome',
]
try {
  execFileSync(process.execPath, [tsc, ...flags, ...Object.values(entries)], { cwd: root, stdio: 'pipe' })
} catch (e) {
  console.error(String(e.stdout ?? '') + String(e.stderr ?? ''))
  process.exit(1)
}
const problems = []
for (const [name, file] of Object.entries(entries)) {
  const text = readFileSync(join(tmp, file.replace(/\.ts$/, '.d.ts')), 'utf8')
  // Doc comments quote imports as examples; only code counts (a /// reference is code).
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/(?!\/).*$/gm, '')
  for (const m of code.matchAll(
    /\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\/\/\/\s*<reference\s+(?:path|types)=['"]([^'"]+)['"]/g,
  )) {
    const spec = m[1] ?? m[2] ?? m[3]
    if (!kTypeImports.has(spec))
      problems.push(`${file}: its declarations import '${spec}'; declare the type in ${file} instead`)
  }
  writeFileSync(join(out, `${name}.d.cts`), text)
}
rmSync(tmp, { recursive: true, force: true })
if (problems.length) {
  console.error(`The shipped declarations must stand alone:\n${problems.join('\n')}`)
  process.exit(1)
}
console.log(
  `built ${Object.keys(entries)
    .map((n) => `${out}/${n}.cjs`)
    .join(', ')} and their declarations`,
)
