// The README promises two commands on a fresh clone (`npm run demo`, `npm test`): when the
// dependencies are not installed yet, install exactly the locked versions first. Chromium is
// the one thing npm cannot bring (Debian's `chromium` package; .ci/run installs it).
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
if (!existsSync(resolve(root, 'node_modules/.package-lock.json'))) {
  console.log('Installing dependencies (npm ci)…')
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
const chromium = process.env.AVA_CHROMIUM ?? '/usr/bin/chromium'
if (!existsSync(chromium)) {
  console.warn(`Chromium was not found at ${chromium}: install Debian's chromium package (sudo apt-get install chromium) or set AVA_CHROMIUM.`)
}
