// Fails when a layer imports against the one-way street of STYLE.md:
//   core → (nothing of ours)   dom → core   messaging/storage → core
// ESLint catches most of it; this walks the resolved import graph so that a relative path
// spelled in an unusual way, or a re-export, cannot slip through.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, dirname, resolve, relative, sep } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const src = join(root, 'src')
const allowed = {
  core: ['core'],
  dom: ['core', 'dom'],
  messaging: ['core', 'messaging'],
  storage: ['core', 'storage', 'messaging'],
}
const bannedPackages = {
  core: [/^vue$/, /^pinia$/, /^webextension-polyfill$/, /\.vue$/],
  dom: [/^vue$/, /^pinia$/, /^webextension-polyfill$/, /\.vue$/],
}

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) yield* files(p)
    else if (/\.(ts|vue)$/.test(name)) yield p
  }
}

const importRe = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s*['"]([^'"]+)['"]/g
const problems = []
for (const file of files(src)) {
  const layer = relative(src, file).split(sep)[0]
  if (!(layer in allowed)) continue
  const text = readFileSync(file, 'utf8')
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3]
    const line = text.slice(0, m.index).split('\n').length
    if (spec.startsWith('.')) {
      const target = relative(src, resolve(dirname(file), spec)).split(sep)[0]
      if (!allowed[layer].includes(target)) problems.push(`${relative(root, file)}:${line}: ${layer}/ imports ${target}/ ('${spec}')`)
    } else if ((bannedPackages[layer] ?? []).some((re) => re.test(spec))) {
      problems.push(`${relative(root, file)}:${line}: ${layer}/ imports '${spec}'`)
    }
  }
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')
  if (layer === 'core' && /\bchrome\.|\bdocument\.|\bwindow\./.test(code)) {
    problems.push(`${relative(root, file)}: core/ touches chrome, document or window`)
  }
}
if (problems.length) {
  console.error('Layer violations:\n' + problems.join('\n'))
  process.exit(1)
}
console.log('layers ok')
