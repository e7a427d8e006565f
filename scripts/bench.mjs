// npm run bench [-- <suite> ...] [--json] [--smoke] [suite options]
// --smoke: every case once, figures not judged (CI runs it so a suite cannot break silently).
// Every suite is bench/<suite>.ts; it prints its results through bench/lib/report.ts.
import { readdirSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const known = readdirSync(resolve(root, 'bench'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3))
  .sort()

const args = process.argv.slice(2)
const json = args.includes('--json')
const smoke = args.includes('--smoke')
const suites = []
const rest = []
for (let i = 0; i < args.length; i++) {
  const a = args[i]
  if (a === '--json' || a === '--smoke') continue
  if (!a.startsWith('-') && known.includes(a) && rest.length === 0) suites.push(a)
  else rest.push(a)
}
const unknown = args.filter((a, i) => !a.startsWith('-') && !known.includes(a) && (i === 0 || !args[i - 1].startsWith('--')))
if (unknown.length && suites.length === 0) {
  console.error(`Unknown bench suite: ${unknown.join(', ')}. Suites: ${known.join(', ')}`)
  process.exit(2)
}

let failed = false
for (const suite of suites.length ? suites : known) {
  if (!json) console.log(`\n== bench: ${suite}`)
  const r = spawnSync(process.execPath, ['--import', 'tsx', resolve(root, 'bench', `${suite}.ts`), ...rest], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, AVA_BENCH_JSON: json ? '1' : '', ...(smoke ? { AVA_BENCH_SMOKE: '1' } : {}) },
  })
  if (r.status !== 0) {
    failed = true
    console.error(`bench suite ${suite} failed (exit ${r.status})`)
  }
}
process.exit(failed ? 1 : 0)
