// Packs dist/ into release/ava-<version>.zip, the layout the Chrome Web Store expects
// (manifest.json at the root of the archive).
import { readFileSync, readdirSync, statSync, mkdirSync, writeFileSync, existsSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { zipSync } from 'fflate'

const root = resolve(import.meta.dirname, '..')
const dist = join(root, 'dist')
if (!existsSync(join(dist, 'manifest.json'))) {
  console.error('dist/manifest.json is missing: run `npm run build` first.')
  process.exit(1)
}
const files = {}
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p)
    else if (!name.endsWith('.map')) files[relative(dist, p).split('\\').join('/')] = readFileSync(p)
  }
}
walk(dist)
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
mkdirSync(join(root, 'release'), { recursive: true })
const out = join(root, 'release', `ava-${version}.zip`)
writeFileSync(out, zipSync(files, { level: 9 }))
console.log(`${relative(root, out)}: ${Object.keys(files).length} files, ${(statSync(out).size / 1024).toFixed(1)} KiB`)
