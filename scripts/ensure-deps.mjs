// The README promises two commands on a fresh clone (`npm run demo`, `npm test`): when the
// dependencies are not installed yet, install exactly the locked versions first. Chromium is
// the one thing npm cannot bring (Debian's `chromium` package; .ci/run installs it).
import { existsSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
if (!existsSync(resolve(root, 'node_modules/.package-lock.json'))) {
  console.log('Installing dependencies (npm ci)…')
  // --prefer-offline: what the npm cache holds is used without asking the registry whether it is
  // still current (the lock pins every version and its integrity); on a warm cache this more than
  // halved the install on a loaded 2-core machine. Anything missing is still downloaded.
  const r = spawnSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
const chromium = process.env.AVA_CHROMIUM ?? '/usr/bin/chromium'
if (!existsSync(chromium)) {
  // `npm run demo` cannot do anything without a browser: stop before the build, with the fix.
  // `npm test` only warns, since its unit tier runs without one.
  const demo = process.env.npm_lifecycle_event === 'demo'
  const lines = [
    `Chromium was not found at ${chromium}${process.env.AVA_CHROMIUM ? ' (AVA_CHROMIUM)' : ''}.`,
    'Install it, then run this again:',
    '  Debian/Ubuntu:  sudo apt-get install chromium',
    '  Fedora:         sudo dnf install chromium',
    '  macOS:          brew install --cask chromium',
    'or point at a Chromium you have: AVA_CHROMIUM=/path/to/chromium npm run demo',
    '(Google Chrome will not do: it no longer loads an unpacked extension from the command line.)',
  ]
  if (demo) {
    console.error(lines.join('\n'))
    process.exit(1)
  }
  console.warn(`${lines[0]} The end-to-end tests need it: ${lines[2].trim()}, or set AVA_CHROMIUM.`)
}
