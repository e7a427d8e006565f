import { existsSync, readFileSync, statSync } from 'node:fs'
import { execSync } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

export const root = resolve(import.meta.dirname, '../..')
export const dist = process.env.AVA_DIST ?? resolve(root, 'dist')

/** Benchmarks measure the built extension; build it when there is none yet. */
export function ensureBuilt(): void {
  if (!existsSync(resolve(dist, 'manifest.json'))) execSync(`npx vite build --outDir ${JSON.stringify(dist)}`, { cwd: root, stdio: 'ignore' })
}

/**
 * The JavaScript a page loads before anyone opens Ava: the manifest's content-script files, the
 * module the crxjs loader imports, and everything those reach through static imports. Dynamic
 * `import()` targets load on first use and are not counted.
 */
export function eagerContentFiles(): string[] {
  const manifest = JSON.parse(readFileSync(resolve(dist, 'manifest.json'), 'utf8')) as { content_scripts: { js: string[] }[] }
  const seen = new Set<string>()
  const visit = (file: string, viaLoader: boolean) => {
    const abs = resolve(dist, file)
    if (seen.has(abs) || !existsSync(abs)) return
    seen.add(abs)
    const code = readFileSync(abs, 'utf8')
    // The crxjs loader is the one file whose dynamic import is the eager entry itself.
    if (viaLoader) for (const m of code.matchAll(/getURL\(\s*["']([^"']+)["']\s*\)/g)) visit(m[1], false)
    for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)) {
      visit(resolve(dirname(abs), m[1]).slice(dist.length + 1), false)
    }
  }
  for (const cs of manifest.content_scripts) for (const js of cs.js) visit(js, true)
  return [...seen]
}

export function sizes(files: string[]): { bytes: number; gzip: number } {
  let bytes = 0
  let gzip = 0
  for (const f of files) {
    bytes += statSync(f).size
    gzip += gzipSync(readFileSync(f), { level: 9 }).length
  }
  return { bytes, gzip }
}
