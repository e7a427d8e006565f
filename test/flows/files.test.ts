import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import {
  flowToAction,
  parseFlow,
  parseSource,
  replayFlow,
  safeParseFlow,
  type FlowFile,
  type FlowPort,
  type RunStepOptions,
  type StepOutcome,
} from '../../src/core/flows'
import { flowFilePath, loadTarget, missingFlowFiles } from '../../src/cli/run'

// `${file:path}` variables, the files an upload step (or a fill on a file input) puts
// into the page. Their schema, the replay handing their bytes to the port, a runner that cannot
// read files, and where `ava run` looks for them (relative to the flow file's folder).

const sel = { primary: { type: 'role' as const, value: 'role:button[name="Choose file"]' }, fallback: [] }
const meta = { name: 'f', created_at: '2026-01-01T00:00:00.000Z', source: 'manual' as const }
const flowOf = (steps: unknown[], variables: Record<string, unknown> = {}): unknown => ({
  version: '1.0',
  metadata: meta,
  variables,
  steps: steps.map((s, i) => ({ step_id: i + 1, ...(s as object) })),
})
const issuesOf = (input: unknown): string[] => {
  const r = safeParseFlow(input)
  return r.success ? [] : r.error.issues.map((i) => `${i.path}: ${i.message}`)
}
const okOutcome = (): StepOutcome => ({
  ok: true,
  level: 'role',
  alternative: 0,
  resolveMs: 1,
  actMs: 1,
  detail: 'done',
})

function recordingPort(): FlowPort & { asked: { action: string; opts: RunStepOptions }[] } {
  const asked: { action: string; opts: RunStepOptions }[] = []
  return {
    asked,
    runStep: async (step, opts) => (asked.push({ action: step.action, opts }), okOutcome()),
    navigate: async () => undefined,
  }
}

describe('the schema', () => {
  test('a file variable is a source, and an upload step names one', () => {
    expect(parseSource('${file:./fixtures/cv.pdf}')).toEqual({ kind: 'file', key: './fixtures/cv.pdf' })
    expect(() => parseSource('${file:}')).toThrow(/path is empty/)
    const vars = { cv: { value: '${file:cv.pdf}' }, who: { value: 'ann' } }
    expect(issuesOf(flowOf([{ action: 'upload', params: { file: '${cv}' }, selectors: sel }], vars))).toEqual([])
    expect(issuesOf(flowOf([{ action: 'upload', params: { file: '${who}' }, selectors: sel }], vars))).toEqual([
      'steps[0].params.file: "${who}" is not a file variable: give it the value "${file:path}"',
    ])
    expect(issuesOf(flowOf([{ action: 'upload', params: { file: 'cv.pdf' }, selectors: sel }], vars))).toEqual([
      'steps[0].params.file: an upload step needs params.file naming a file variable: "${doc}" with variables.doc.value "${file:./doc.pdf}"',
    ])
    expect(issuesOf(flowOf([{ action: 'upload', params: { file: '${cv}' } }], vars))).toEqual([
      'steps[0].selectors: a upload step needs selectors',
    ])
  })

  test("as a pack action, the upload reads the path, with the flow's path as the default", () => {
    const flow = parseFlow(
      flowOf([{ action: 'upload', params: { file: '${cv}' }, selectors: sel }], { cv: { value: '${file:cv.pdf}' } }),
    )
    const { action } = flowToAction(flow, { namespace: 'recorded' })
    expect(action.steps?.[0]).toMatchObject({ action: 'upload', args: { files: [{ path: '${params.cv}' }] } })
    expect(action.params?.cv).toMatchObject({ type: 'string', default: 'cv.pdf' })
  })
})

describe('the replay', () => {
  const pdf: FlowFile = { name: 'cv.pdf', mimeType: 'application/pdf', base64: 'JVBERi0=' }
  const flow = parseFlow(
    flowOf(
      [
        { action: 'upload', params: { file: '${cv}' }, selectors: sel },
        { action: 'fill', params: { value: '${cv}' }, selectors: sel },
        { action: 'fill', params: { value: '${who}' }, selectors: sel },
      ],
      { cv: { value: '${file:docs/cv.pdf}' }, who: { value: 'ann' } },
    ),
  )

  test('reads each file once, before the first step, and hands its bytes to the steps that name it', async () => {
    const read: [string, string][] = []
    const port = recordingPort()
    const r = await replayFlow(flow, {
      port,
      navigateToStart: false,
      variables: { file: async (path, variable) => (read.push([path, variable]), pdf) },
    })
    expect(r.success).toBe(true)
    expect(read).toEqual([['docs/cv.pdf', 'cv']])
    expect(port.asked.map((a) => a.opts.files)).toEqual([[pdf], [pdf], undefined])
  })

  test('a runner that cannot read files fails before any step, naming the variable', async () => {
    const port = recordingPort()
    const r = await replayFlow(flow, { port, navigateToStart: false })
    expect(r.success).toBe(false)
    expect(r.error).toMatchObject({ step_id: 0, code: 'VARIABLE_MISSING' })
    expect(r.error?.message).toContain('"cv" (docs/cv.pdf)')
    expect(r.error?.message).toContain('cannot read files on disk')
    expect(port.asked).toEqual([])
  })

  test('a file that cannot be read fails before any step, with the reason', async () => {
    const port = recordingPort()
    const r = await replayFlow(flow, {
      port,
      navigateToStart: false,
      variables: { file: async () => Promise.reject(new Error('ENOENT: no such file')) },
    })
    expect(r.error?.message).toBe('The flow\'s file "cv" could not be read: ENOENT: no such file')
    expect(port.asked).toEqual([])
  })
})

describe('where `ava run` finds the files', () => {
  let dir: string
  let flowFile: string
  const data = flowOf(
    [
      { action: 'upload', params: { file: '${cv}' }, selectors: sel },
      { action: 'verify', params: { text: 'cv.pdf' } },
    ],
    { cv: { value: '${file:files/cv.pdf}' } },
  )
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ava-files-'))
    mkdirSync(join(dir, 'flows', 'files'), { recursive: true })
    flowFile = join(dir, 'flows', 'upload.flow.json')
    writeFileSync(flowFile, JSON.stringify(data))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test("relative to the flow file's folder; absolute as given; a --param path relative to the working directory", () => {
    const flow = parseFlow(data)
    expect(flowFilePath(flow, 'cv', join(dir, 'flows'), {})).toBe(join(dir, 'flows', 'files', 'cv.pdf'))
    const abs = parseFlow(
      flowOf([{ action: 'upload', params: { file: '${cv}' }, selectors: sel }], {
        cv: { value: '${file:/srv/data/cv.pdf}' },
      }),
    )
    expect(flowFilePath(abs, 'cv', join(dir, 'flows'), {})).toBe('/srv/data/cv.pdf')
    expect(flowFilePath(flow, 'cv', join(dir, 'flows'), { cv: 'other.pdf' })).toBe(resolve('other.pdf'))
    expect(flowFilePath(flow, 'cv', undefined, {})).toBe(resolve('files/cv.pdf'))
  })

  test('a missing file is reported by loadTarget, before a browser starts', () => {
    const missing = loadTarget({ target: flowFile, params: {} })
    // Outside the working directory, displayPath keeps the paths absolute.
    expect(missing).toBe(`${flowFile}: the file "cv" is not at ${join(dir, 'flows/files/cv.pdf')}.`)
    writeFileSync(join(dir, 'flows', 'files', 'cv.pdf'), '%PDF-1.4')
    const found = loadTarget({ target: flowFile, params: {} })
    expect(typeof found).toBe('object')
    expect(found).toMatchObject({ kind: 'flow', dir: join(dir, 'flows') })
    expect(missingFlowFiles(parseFlow(data), join(dir, 'flows'), {})).toEqual([])
    expect(missingFlowFiles(parseFlow(data), join(dir, 'flows'), { cv: join(dir, 'nope.pdf') })).toEqual([
      { variable: 'cv', path: join(dir, 'nope.pdf') },
    ])
  })
})
