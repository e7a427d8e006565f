import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from '../../src/cli/ava'
import { kNoAssertionWarning } from '../../src/core/flows'

// `ava action validate` on flow files: validateFlow's errors fail the file; its
// warnings (a flow that checks nothing, steps after done, a file to upload that is not there) go
// to stderr with exit 0, and --json carries them.

let dir: string
const saved = { HOME: process.env.HOME, AVA_ACTIONS_PATH: process.env.AVA_ACTIONS_PATH }
const sel = { primary: { type: 'css', value: 'css:#cv' }, fallback: [] }
const flowOf = (steps: unknown[], variables: Record<string, unknown> = {}) => ({
  version: '1.0',
  metadata: { name: 'f', created_at: '2026-01-01T00:00:00.000Z', source: 'manual' },
  variables,
  steps: steps.map((s, i) => ({ step_id: i + 1, ...(s as object) })),
})
const write = (name: string, data: unknown): string => {
  const file = join(dir, name)
  writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data))
  return file
}

async function ava(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ava-validate-'))
  process.env.HOME = dir
  process.env.AVA_ACTIONS_PATH = ''
})
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  rmSync(dir, { recursive: true, force: true })
})

describe('ava action validate <flow.json>', () => {
  test('a flow with a check is valid, with nothing to say but the count', async () => {
    const file = write(
      'good.flow.json',
      flowOf([
        { action: 'navigate', params: { url: 'https://a.test/' } },
        { action: 'verify', params: { text: 'Welcome' } },
      ]),
    )
    const r = await ava('action', 'validate', file)
    expect(r).toEqual({ code: 0, out: '', err: '1 file valid' })
  })

  test('a flow that checks nothing passes with the warning on stderr; --json includes it', async () => {
    const file = write('unchecked.flow.json', flowOf([{ action: 'navigate', params: { url: 'https://a.test/' } }]))
    const r = await ava('action', 'validate', file)
    expect(r.code).toBe(0)
    expect(r.out).toBe('')
    expect(r.err.split('\n')).toEqual([`${file}: warning: steps: ${kNoAssertionWarning}`, '1 file valid'])
    const j = await ava('action', 'validate', file, '--json')
    expect(j.code).toBe(0)
    expect(JSON.parse(j.out)).toEqual({
      valid: true,
      files: [
        {
          path: file,
          kind: 'flow',
          valid: true,
          errors: [],
          warnings: [{ path: 'steps', message: kNoAssertionWarning }],
        },
      ],
    })
  })

  test('a file to upload that is not beside the flow is a warning; an invalid flow fails with its errors', async () => {
    const upload = write(
      'upload.flow.json',
      flowOf(
        [
          { action: 'upload', params: { file: '${cv}' }, selectors: sel },
          { action: 'verify', params: { text: 'cv.pdf' } },
        ],
        { cv: { value: '${file:files/cv.pdf}' } },
      ),
    )
    const bad = write('bad.flow.json', flowOf([{ action: 'fill', params: {}, selectors: sel }]))
    const r = await ava('action', 'validate', upload, bad)
    expect(r.code).toBe(1)
    expect(r.out).toBe(`${bad}: steps[0].params.value: a fill step needs params.value`)
    // An invalid flow has errors only: its warnings would be about a flow that does not exist.
    expect(r.err.split('\n')).toEqual([
      `${upload}: warning: variables.cv: the file is not at ${join(dir, 'files/cv.pdf')}; \`ava run\` fails unless it is there or given with --param cv=<path>`,
      '1 of 2 files invalid',
    ])
    expect((await ava('action', 'validate', write('broken.json', '{'))).out).toMatch(
      /broken\.json: \(root\): The flow is not valid JSON/,
    )
  })

  test("flows and packs together: one count, the pack's problems as before", async () => {
    const flow = write('ok.flow.json', flowOf([{ action: 'verify', params: { url: '*' } }]))
    const pack = write('p.yaml', 'namespace: t\n')
    const r = await ava('action', 'validate', flow, pack)
    expect(r.code).toBe(1)
    expect(r.out).toMatch(/p\.yaml:\d+:\d+: /)
    expect(r.err).toBe('1 of 2 files invalid')
  })

  test('a folder holds packs and flows alike: each is checked by its own format, in one count', async () => {
    const folder = join(dir, 'mixed')
    mkdirSync(join(folder, 'flows'), { recursive: true })
    writeFileSync(
      join(folder, 'flows', 'signup.flow.json'),
      JSON.stringify(flowOf([{ action: 'verify', params: { text: 'Welcome' } }])),
    )
    writeFileSync(
      join(folder, 'flows', 'broken.flow.json'),
      JSON.stringify(flowOf([{ action: 'fill', params: {}, selectors: sel }])),
    )
    writeFileSync(join(folder, 'package.json'), '{}') // not a flow: only *.flow.json are
    cpSync(join(import.meta.dirname, '../fixtures/packs/valid'), join(folder, 'packs'), { recursive: true })
    const r = await ava('action', 'validate', folder)
    expect(r.out).toBe(
      `${join(folder, 'flows', 'broken.flow.json')}: steps[0].params.value: a fill step needs params.value`,
    )
    const packs = readdirSync(join(folder, 'packs')).length
    expect(r.err).toBe(`1 of ${packs + 2} files invalid`)
    expect(r.code).toBe(1)
  })

  test('a folder of flows only is not READ_FAILED', async () => {
    const folder = join(dir, 'flows-only')
    mkdirSync(folder)
    writeFileSync(
      join(folder, 'signup.flow.json'),
      JSON.stringify(flowOf([{ action: 'verify', params: { text: 'Welcome' } }])),
    )
    expect(await ava('action', 'validate', folder)).toEqual({ code: 0, out: '', err: '1 file valid' })
    const empty = join(dir, 'empty')
    mkdirSync(empty)
    const none = await ava('action', 'validate', empty)
    expect(none.code).toBe(1)
    expect(none.out).toContain('READ_FAILED no pack (.yaml, .yml) or flow (.flow.json) file at this path')
  })
})
