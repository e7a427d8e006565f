// The meta-test of the one step guard (src/core/gate/guard.ts, docs/security.md "Every door, one
// rule"): a door says who asks and who can answer; it never judges a step, counts one, or runs the
// question loop on its own. A file outside the guard that calls one of the guard's judges, counts
// by the vocabulary's rule, compares a step limit, or runs `askUntilDecided` itself has forked the
// rules, and fails here, naming the file and what it called.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../../..')

/** The guard: its core (src/core/gate), the rules it is built from, and its half in the page (judged as drawn). */
const kGuard = [
  'src/core/gate/',
  'src/core/vocabulary.ts',
  'src/core/offsite.ts',
  'src/core/step-place.ts',
  'src/core/risk/',
  'src/core/registry/capabilities.ts',
  'src/dom/page/receiver.ts',
  'src/dom/step-place.ts',
  'src/dom/risk.ts',
  'src/dom/offsite.ts',
]

/** What only the guard calls: the judges of where a step acts, the secrets' binding, the pack's questions, the counting rule, the question loop. */
const kJudges = [
  'askUntilDecided',
  'navigationRefusal',
  'frameSiteRefusal',
  'uploadRefusal',
  'downloadRefusal',
  'decideRisk',
  'unboundOn',
  'packQuestion',
  'countsAsStep',
  'flowStepCounts',
  'instructionCounts',
]

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|vue)$/.test(name) ? [path] : []
  })
}

/** The code of a file without its comments (a comment may name a judge to say where it lives). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
}

export function forks(rel: string, text: string): string[] {
  if (kGuard.some((g) => (g.endsWith('/') ? rel.startsWith(g) : rel === g))) return []
  const src = code(text)
  const found: string[] = []
  for (const name of kJudges) if (new RegExp(`\\b${name}\\b`).test(src)) found.push(name)
  // A step limit compared outside the guard is a second count (createStepCount is the one). Comparisons
  // are spaced (Prettier); a type's closing `>` before a field named stepLimit is not one.
  if (/ (?:[<>]=?|===?)[ \t]*[\w.?]*\bstepLimit\b|\bstepLimit\b[ \t]*(?:[<>]=?|===?) /.test(src))
    found.push('a step limit compared')
  return found
}

describe('every door, one rule', () => {
  it('no file outside the guard judges or counts a step', () => {
    const offenders: string[] = []
    for (const file of [...sourceFiles(resolve(root, 'src')), ...sourceFiles(resolve(root, 'e2e/playwright-test'))]) {
      const rel = relative(root, file).replace(/\\/g, '/')
      const found = forks(rel, readFileSync(file, 'utf8'))
      if (found.length) offenders.push(`${rel}: ${found.join(', ')}`)
    }
    expect(offenders).toEqual([])
  })

  it('catches each kind of fork it names', () => {
    expect(
      forks('src/background/x.ts', "import { countsAsStep } from '../core/vocabulary'\nif (countsAsStep(a)) n++"),
    ).toEqual(['countsAsStep'])
    expect(forks('src/cli/x.ts', 'const r = navigationRefusal(url, here, sites, confirm)')).toEqual([
      'navigationRefusal',
    ])
    expect(forks('src/cli/x.ts', 'await askUntilDecided(cmd, send, questionOf, decide)')).toEqual(['askUntilDecided'])
    expect(forks('src/background/x.ts', 'if (++s.acted > agent.stepLimit) ask()')).toEqual(['a step limit compared'])
    expect(forks('src/background/x.ts', '// countsAsStep lives in the guard')).toEqual([])
    expect(forks('src/core/gate/guard.ts', 'countsAsStep(x)')).toEqual([])
  })
})
