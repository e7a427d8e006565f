// Fails when a folder of src/ imports what its DEPS.list does not allow (STYLE.md, the one-way
// street between layers; Playwright keeps the same kind of map beside its packages). Every folder
// must have a DEPS.list: one line per folder of src/ it may import (ending in /) or package
// (`@ai-sdk/*` and `node:*` match a family). It walks the resolved import graph, so a relative path
// spelled in an unusual way, a re-export or a dynamic import cannot slip through; core is also
// checked for chrome, document and window, which need no import.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, dirname, resolve, relative, sep } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const src = join(root, 'src')

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) yield* files(p)
    else if (/\.(ts|vue)$/.test(name)) yield p
  }
}

/** A DEPS.list: the folders and package patterns a folder may import. */
function readDeps(folder) {
  const path = join(src, folder, 'DEPS.list')
  if (!existsSync(path)) return null
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter(Boolean)
  return {
    folders: new Set([folder, ...lines.filter((l) => l.endsWith('/')).map((l) => l.slice(0, -1))]),
    packages: lines.filter((l) => !l.endsWith('/')),
  }
}

/** `vue` allows `vue`; `@ai-sdk/*` allows `@ai-sdk/anthropic`; `yaml` allows `yaml/util`. */
function packageAllowed(spec, patterns) {
  return patterns.some((p) =>
    p.endsWith('*') ? spec.startsWith(p.slice(0, -1)) : spec === p || spec.startsWith(`${p}/`),
  )
}

// Statements at the start of a line (so that the word "import" in a string is not one), and dynamic imports.
const importRe =
  /^\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm
const problems = []
const folders = readdirSync(src).filter((n) => statSync(join(src, n)).isDirectory())
const maps = Object.fromEntries(folders.map((f) => [f, readDeps(f)]))
for (const f of folders) if (!maps[f]) problems.push(`src/${f}/ has no DEPS.list: say what it may import`)

for (const file of files(src)) {
  const layer = relative(src, file).split(sep)[0]
  const deps = maps[layer]
  if (!deps) continue
  const all = readFileSync(file, 'utf8')
  // In a single-file component only the scripts import; the template may say anything.
  const text = file.endsWith('.vue')
    ? all.replace(/<template>[\s\S]*<\/template>/, (t) => t.replace(/[^\n]/g, ' '))
    : all
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3]
    const line = text.slice(0, m.index).split('\n').length
    if (spec.startsWith('.') || spec.startsWith('/')) {
      const target = spec.startsWith('/')
        ? relative(root, join(root, spec)).split(sep)[0]
        : relative(src, resolve(dirname(file), spec)).split(sep)[0]
      // Files outside src/ (the bundled actions/, the manifest) are data, not layers.
      if (target.startsWith('..') || !folders.includes(target)) continue
      if (!deps.folders.has(target))
        problems.push(
          `${relative(root, file)}:${line}: ${layer}/ imports ${target}/ ('${spec}'), which src/${layer}/DEPS.list does not allow`,
        )
    } else if (!packageAllowed(spec, deps.packages)) {
      problems.push(
        `${relative(root, file)}:${line}: ${layer}/ imports '${spec}', which src/${layer}/DEPS.list does not allow`,
      )
    }
  }
  // Words in quotes are text, not code: a locale table may say "in another window." (src/core/locales).
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, "''")
  if (layer === 'core' && /\bchrome\.|\bdocument\.|\bwindow\./.test(code)) {
    problems.push(`${relative(root, file)}: core/ touches chrome, document or window`)
  }
}
if (problems.length) {
  console.error('Layer violations:\n' + problems.join('\n'))
  process.exit(1)
}
console.log(`layers ok: ${folders.length} folders, each within its DEPS.list`)
