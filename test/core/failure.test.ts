import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  failureDocs,
  failureHint,
  failureKeys,
  failureMsg,
  failureOf,
  isFailureCode,
  isRepairable,
  kFailureCodes,
  kFailures,
  kLegacyKeys,
  kTroubleshooting,
  type FailureSpec,
} from '../../src/core/failure'
import { createRenderer, failureLinesEn, renderEn } from '../../src/core/locales/render'
import { MsgSchema } from '../../src/core/chat'
import en from '../../src/core/locales/en'
import zhCN from '../../src/core/locales/zh-CN'
import { kIssueCodes } from '../../src/popup/run-text'

// The one failure-code list (src/core/failure.ts): every code has its sentences in both locale
// tables, no other list of failure codes grows beside it, and what the CLI prints is the table's.

const root = resolve(import.meta.dirname, '../..')
const renderZh = createRenderer(zhCN, 'zh-CN')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|vue)$/.test(name) ? [path] : []
  })
}

describe('the failure list', () => {
  it('every code has its locale keys in both tables, and each renders to a sentence', () => {
    for (const code of kFailureCodes) {
      const spec: FailureSpec = kFailures[code]
      expect(spec.means.length, code).toBeGreaterThan(10)
      // A code has sentences for a person, or says who reads it instead (a model, a script).
      expect(Object.keys(spec.say).length > 0 !== !!spec.reader, code).toBe(true)
      for (const key of [...Object.values(spec.say), spec.hint].filter((k): k is string => !!k)) {
        expect(en, `${code}: ${key}`).toHaveProperty([key])
        expect(zhCN, `${code}: ${key}`).toHaveProperty([key])
      }
    }
    for (const key of failureKeys()) {
      const m = { key, params: { n: 3 } }
      expect(renderEn(m), key).not.toBe(key)
      expect(renderZh(m), key).not.toBe(key)
      expect(renderEn(m), key).not.toMatch(/[{}]/)
    }
  })

  it('a sentence keyed by a code names a code of the list (no sentence for a code that is not in it)', () => {
    const byCode =
      /^(?:outcome\.step|outcome\.error|error|failure|failure\.hint|options\.testError|action\.reason)\.([A-Z][A-Z_]+)$/
    const named = new Set(failureKeys())
    // Sentences a code's own sentence stands beside (a provider's URL, a local server's state), said by
    // the agent itself, and the notice under an answer cut short (not a failure).
    const beside = new Set([
      'error.ANSWER_CUT',
      'outcome.error.NETWORK_AT',
      'outcome.error.LOCAL_DOWN',
      'outcome.error.LOCAL_ORIGIN',
      'outcome.error.LOCAL_NOT_PULLED',
      'failure.CACHE_NOT_JSON_AT',
      'failure.SETTINGS_NOT_JSON_AT',
    ])
    const orphans = Object.keys(en).filter((k) => byCode.test(k) && !named.has(k) && !beside.has(k))
    expect(orphans).toEqual([])
  })

  it('says a step failure with its number, a run failure without, and an unknown code as UNKNOWN', () => {
    expect(renderEn(failureMsg('ELEMENT_NOT_FOUND', { n: 2 }))).toBe(
      'Step 2 failed: nothing on the page matches what it looks for.',
    )
    expect(renderZh(failureMsg('ELEMENT_NOT_FOUND', { n: 2 }))).toBe('第 2 步失败：页面上找不到要操作的元素。')
    expect(failureMsg('ELEMENT_STALE')).toEqual({ key: 'outcome.error.ELEMENT_NOT_FOUND' })
    expect(failureMsg('NO_RECEIVER')).toEqual({ key: 'outcome.error.NO_PAGE' })
    expect(failureMsg('PACK_MISSING', { params: { namespace: 'x' } })).toEqual({
      key: 'failure.PACK_MISSING',
      params: { namespace: 'x' },
    })
    expect(failureOf('A_CODE_FROM_A_NEWER_VERSION')).toBe(kFailures.UNKNOWN)
    expect(renderEn(failureHint('ACTION_NOT_FOUND')!)).toContain('ava action list')
    expect(failureHint('NETWORK')).toBeUndefined()
  })

  it('what a repair may address: an element not singled out; a refusal or a page that did not answer is not', () => {
    expect(kFailureCodes.filter(isRepairable).sort()).toEqual([
      'AMBIGUOUS',
      'ELEMENT_NOT_FOUND',
      'ELEMENT_STALE',
      'NOT_SIMILAR',
    ])
  })

  it('a stored history naming a renamed code still says its sentence (one legacy map, read in the schema)', () => {
    for (const [old, now] of Object.entries(kLegacyKeys)) {
      expect(MsgSchema.parse({ key: old })).toEqual({ key: now })
      expect(en).toHaveProperty([now])
      expect(en).not.toHaveProperty([old])
    }
    expect(MsgSchema.parse({ key: 'outcome.step.ELEMENT_NOT_FOUND', params: { n: 1 } })).toEqual({
      key: 'outcome.step.ELEMENT_NOT_FOUND',
      params: { n: 1 },
    })
  })

  it('the CLI lines: the table sentence, the engine words as detail, the hint', () => {
    expect(failureLinesEn('ELEMENT_NOT_FOUND', { n: 1, detail: 'No element matches the selectors.' })).toEqual([
      `   ${en['outcome.step.ELEMENT_NOT_FOUND'].replace('{n}', '1')}`,
      '   detail: No element matches the selectors.',
      `   hint: ${en['failure.hint.ELEMENT_NOT_FOUND']}`,
    ])
  })
})

describe('no second list of failure codes under src/', () => {
  const files = sourceFiles(join(root, 'src')).filter((f) => !f.endsWith(join('core', 'failure.ts')))
  const text = (f: string) => readFileSync(f, 'utf8')

  it('a layer names its codes as a subset of FailureCode, never as its own union of strings', () => {
    // `type XCode = 'A' | 'B'` or `type XErrorCode =\n  | 'A'` beside the list: a second vocabulary.
    const own =
      /export type (\w*(?:Error|Failure|Channel|Exec|Step)\w*Code)\s*=(?!\s*(?:Extract<\s*FailureCode|FailureCode\b))/g
    // The issue codes of a pack file (one per problem in a YAML text, each titled by pack.issue.<code>)
    // are zod's issue list for packs, not failures a step or a run ends in.
    const allowed = new Set(['PackIssueCode', 'ExpressionErrorCode'])
    const found = files
      .flatMap((f) => [...text(f).matchAll(own)].map((m) => `${relative(root, f)}: ${m[1]}`))
      .filter((x) => !allowed.has(x.split(': ')[1]))
    expect(found).toEqual([])
  })

  it('no table maps one failure code to another, and no array lists codes of the list', () => {
    const codes = kFailureCodes.join('|')
    // A record or switch entry whose key and value are both codes: `ELEMENT_STALE: 'ELEMENT_NOT_FOUND'`.
    const mapping = new RegExp(`\\b(?:${codes}):\\s*'(?:${codes})'`, 'g')
    // An array literal of three or more codes: a list of its own (`['NOT_FOUND', 'AMBIGUOUS', …]`).
    const list = new RegExp(`\\[\\s*'(?:${codes})'(?:\\s*,\\s*'(?:${codes})'){2,}`, 'g')
    const found = files.flatMap((f) =>
      [...text(f).matchAll(mapping), ...text(f).matchAll(list)].map((m) => `${relative(root, f)}: ${m[0]}`),
    )
    expect(found).toEqual([])
  })

  it('every code a file under src/ sends or throws is a code of the list', () => {
    // `code: 'X'`, `code = 'X'`, `code === 'X'`, `new SomethingError('X', …)`, `fail('X', …)`, `failure('X', …)`.
    const said =
      /\bcode(?:\s*:\s*|\s*={1,3}\s*)'([A-Z][A-Z_]+)'|(?:Error|Failure|fail|failure|refuse)\(\s*'([A-Z][A-Z_]{2,})'/g
    // Not failures: Node's and Chrome's own codes (ERR_…, read, never sent), a pack file's validation issues (zod's issue list for packs, titled pack.issue.<code>)
    // and a pack run's warnings (RunNotice).
    const notFailures = new Set([
      ...Object.keys(kIssueCodes),
      'INVALID_PACK',
      'DEPRECATED',
      'ALIAS',
      'STEP_SKIPPED',
      'STEP_FAILED_CONTINUED',
      'WAIT_FELL_BACK',
    ])
    const found = files.flatMap((f) =>
      [...text(f).matchAll(said)]
        .map((m) => m[1] ?? m[2])
        .filter((c) => !isFailureCode(c) && !notFailures.has(c) && !c.startsWith('ERR_'))
        .map((c) => `${relative(root, f)}: ${c}`),
    )
    expect([...new Set(found)]).toEqual([])
  })

  it('the synonyms the list collapsed are gone', () => {
    const gone = /'(?:NOT_FOUND|ELEMENT_MISSING|ASSERTION_FAILED|ABORTED)'/g
    const found = files.flatMap((f) => [...text(f).matchAll(gone)].map((m) => `${relative(root, f)}: ${m[0]}`))
    expect(found).toEqual([])
  })

  it('English suggestions per code are not written in core: the hints are the tables', () => {
    const core = files.filter((f) => f.includes(join('src', 'core')) && !f.includes(join('core', 'locales')))
    const hints = Object.keys(en)
      .filter((k) => k.startsWith('failure.hint.'))
      .map((k) => en[k as keyof typeof en] as string)
    const copies = core.flatMap((f) =>
      hints.filter((h) => text(f).includes(h.slice(0, 40))).map((h) => `${relative(root, f)}: ${h.slice(0, 40)}`),
    )
    expect(copies).toEqual([])
  })
})

describe('the troubleshooting page', () => {
  const page = readFileSync(resolve(root, 'docs/troubleshooting.md'), 'utf8')
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} -]/gu, '')
      .replace(/ /g, '-')
  const sections = new Map(
    page
      .split(/^## /m)
      .slice(1)
      .map((s) => [slug(s.slice(0, s.indexOf('\n'))), s]),
  )

  it('has a section for every place a failure points to, and every such failure points to one', () => {
    expect([...sections.keys()].sort()).toEqual([...kTroubleshooting].sort())
    const pointed = new Set(kFailureCodes.map((c) => (kFailures[c] as FailureSpec).docs).filter(Boolean))
    // Two sections are about words that are not a code's own: a Chromium missing before any run, and
    // Ollama's 403 (PROVIDER_ERROR said with the local server's own sentence, which names the fix itself).
    expect([...pointed].sort()).toEqual(
      [...kTroubleshooting].filter((s) => s !== 'no-chromium' && s !== 'ollama-refuses-ava-http-403').sort(),
    )
  })

  it("quotes each pointing failure's own words in its section, and the pointer is said in both languages", () => {
    for (const code of kFailureCodes) {
      const section = (kFailures[code] as FailureSpec).docs
      if (!section) continue
      const text = sections.get(section)!.replace(/\n(?!\n)/g, ' ')
      // A person's sentence when the code has one (a step's with its number), else the code as a tool error starts.
      const words = (kFailures[code] as FailureSpec).reader
        ? `${code}: `
        : renderEn(failureMsg(code, { n: 2 })).replace(/^Step 2/, '')
      if ((kFailures[code] as FailureSpec).reader) expect(text, code).toContain(words)
      else expect(text.includes(words) || text.includes(renderEn(failureMsg(code))), `${code}: ${words}`).toBe(true)
      const docs = failureDocs(code)!
      expect(renderEn(docs)).toContain(`docs/troubleshooting.md#${section}`)
      expect(renderZh(docs)).toContain(`docs/troubleshooting.md#${section}`)
    }
    expect(failureLinesEn('NEEDS_CONFIRMATION', { n: 3 }).at(-1)).toBe(
      `   ${renderEn({ key: 'failure.docs', params: { page: 'docs/troubleshooting.md#a-step-needs-a-yes' } })}`,
    )
  })
})
