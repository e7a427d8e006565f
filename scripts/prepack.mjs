// `npm pack` / `npm publish` ship dist/, bin/ava.js and lib/ (package.json `files`). They are built
// again only when a source changed after they were built: the decision compares modification times.
// Every build output below must exist and be newer than the newest file the build reads (src/,
// actions/, public/, scripts/, the Vite and manifest configs, package.json and its lock). A fresh
// clone has no outputs, so it builds; `npm run build` then `npm pack` reuses that build; an edit (or
// a `git checkout` that rewrites a file) after the build makes the next pack rebuild everything.
// AVA_PACK_REBUILD=1 builds regardless.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

export const kOutputs = [
  'dist/manifest.json',
  'bin/ava.js',
  'lib/playwright.cjs',
  'lib/playwright.d.cts',
  'lib/mcp.cjs',
  'lib/mcp.d.cts',
]
export const kInputs = [
  'src',
  'actions',
  'public',
  'scripts',
  'vite.config.ts',
  'manifest.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
]

/** The newest file under the inputs: [path, mtime in ms]. */
function newest(root, paths) {
  let best = ['', 0]
  const visit = (p) => {
    if (!existsSync(p)) return
    const st = statSync(p)
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(join(p, name))
    else if (st.mtimeMs > best[1]) best = [p, st.mtimeMs]
  }
  for (const p of paths) visit(resolve(root, p))
  return best
}

/** Why the package must be built again before packing, or null when the last build is current. */
export function rebuildReason(root, env = process.env) {
  if (env.AVA_PACK_REBUILD) return 'AVA_PACK_REBUILD is set'
  const missing = kOutputs.filter((f) => !existsSync(resolve(root, f)))
  if (missing.length) return `${missing.join(', ')} not built yet`
  const [oldestOut, builtAt] = kOutputs
    .map((f) => [f, statSync(resolve(root, f)).mtimeMs])
    .sort((a, b) => a[1] - b[1])[0]
  const [changed, changedAt] = newest(root, kInputs)
  if (changedAt >= builtAt) return `${relative(root, changed)} changed after ${oldestOut} was built`
  return null
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(import.meta.dirname, '..')
  const why = rebuildReason(root)
  if (!why) {
    console.log(
      'prepack: dist/, bin/ava.js and lib/ are newer than every source: packing that build (AVA_PACK_REBUILD=1 rebuilds)',
    )
  } else {
    console.log(`prepack: ${why}: npm run build`)
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
    if (r.status !== 0) process.exit(r.status ?? 1)
  }
}
