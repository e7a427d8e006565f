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
const unknown = args.filter(
  (a, i) => !a.startsWith('-') && !known.includes(a) && (i === 0 || !args[i - 1].startsWith('--')),
)
if (unknown.length && suites.length === 0) {
  console.error(`Unknown bench suite: ${unknown.join(', ')}. Suites: ${known.join(', ')}`)
  process.exit(2)
}

const failed = []
const run = (suite) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', resolve(root, 'bench', `${suite}.ts`), ...rest], {
    stdio: ['inherit', 'inherit', 'pipe'],
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, AVA_BENCH_JSON: json ? '1' : '', ...(smoke ? { AVA_BENCH_SMOKE: '1' } : {}) },
  })
  const err = r.stderr?.toString() ?? ''
  process.stderr.write(err)
  return { ok: r.status === 0, exit: r.status ?? r.signal, err }
}
for (const suite of suites.length ? suites : known) {
  if (!json) console.log(`\n== bench: ${suite}`)
  let r = run(suite)
  // The smoke only asks that every suite still runs. A suite that fails once on a busy machine
  // (a browser start or a page load past its timeout) runs once more, and the log says so.
  if (!r.ok && smoke) {
    console.log(`bench: ${suite} failed (exit ${r.exit}); running it once more. Its error:\n${tail(r.err)}`)
    r = run(suite)
  }
  if (!r.ok) failed.push({ suite, exit: r.exit, err: r.err })
}
// On stdout and last, so a log that keeps only its tail still says which suite failed and why.
for (const f of failed) console.log(`\nbench: ${f.suite} failed (exit ${f.exit}):\n${tail(f.err)}`)
process.exit(failed.length ? 1 : 0)

function tail(text) {
  return (
    text
      .trim()
      .split('\n')
      .slice(-25)
      .map((l) => `  ${l}`)
      .join('\n') || '  (nothing on stderr)'
  )
}
