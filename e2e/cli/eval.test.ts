import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromium } from 'playwright-core'
import { chromiumPath } from '../support/browser'
import { startEvalSite } from '../../src/cli/eval-site'
import { kEvalTasks } from '../../src/cli/eval-tasks'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

// `ava eval` as a person runs it (docs/eval.md), built, against the loopback model scripted to
// solve some tasks of the suite and to get two wrong: the table, the JSON and the HTML report say
// which passed, with steps, calls, tokens and failure codes; a risky step passes only when asked;
// `--flows` scores a recorded flow's goal by the flow's own checks.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const bin = resolve(root, '.ava-out/e2e-eval/ava.js')

let llm: LlmServer
let site: SiteServer
let dir: string

async function ava(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    AVA_CHROMIUM: chromiumPath,
    AVA_ACTIONS_PATH: '',
    HOME: dir,
    AVA_MODEL_PROVIDER: 'openai',
    AVA_MODEL_BASE_URL: llm.baseUrl,
    AVA_MODEL: 'test-model',
    AVA_API_KEY: 'k',
  }
  try {
    const r = await exec(process.execPath, [bin, ...args], { cwd: dir, env, timeout: 180_000 })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

const step = (action_type: string, params: object) => ({ action_type, params })
/** The scripted model: a plan for each task it is asked about, found by the goal in the request. */
const kPlans: [string, unknown[]][] = [
  [
    'Set the display name to Ada Lovelace',
    [
      step('input', { fallback_selector: '#display', value: 'Ada Lovelace' }),
      step('click', { fallback_selector: 'button[type=submit]' }),
      step('done', { answer: 'Saved the name.' }),
    ],
  ],
  [
    'Choose Japan as the country',
    [
      step('select', { fallback_selector: '#c', value: 'Japan' }),
      step('click', { fallback_selector: 'button[type=submit]' }),
      step('done', { answer: 'Japan it is.' }),
    ],
  ],
  ['How much does the Blue Mug cost', [step('done', { answer: 'The Blue Mug costs **$12.50**.' })]],
  [
    'Delete the project',
    [
      step('click', { fallback_selector: 'form button', semantic_locator: 'Delete project permanently' }),
      step('done', { answer: 'Deleted.' }),
    ],
  ],
  [
    'Save the note',
    [
      step('input', { fallback_selector: '#n', value: 'Call Ann at 3' }),
      step('click', { fallback_selector: 'button[type=submit]' }),
      step('done', { answer: 'Saved the note.' }),
    ],
  ],
  // Wrong on purpose: both boxes ticked, and a miscount.
  [
    'Tick "Send me the monthly newsletter"',
    [
      step('click', { fallback_selector: 'input[name=monthly]' }),
      step('click', { fallback_selector: 'input[name=offers]' }),
      step('click', { fallback_selector: 'button[type=submit]' }),
      step('done', { answer: 'Done.' }),
    ],
  ],
  ['How many invoices are overdue', [step('done', { answer: 'Two invoices are overdue.' })]],
  // The flow's goal: type the name into the site's login form.
  [
    'type flow-user into the username',
    [step('input', { fallback_selector: '#username', value: 'flow-user' }), step('done', { answer: 'Typed.' })],
  ],
]
const model = {
  from: (body: { messages: { content: unknown }[] }) => {
    const text = JSON.stringify(body.messages)
    return JSON.stringify(
      kPlans.find(([goal]) => text.includes(goal.replace(/"/g, '\\"')))?.[1] ?? [
        step('done', { answer: 'I do not know this task.' }),
      ],
    )
  },
  chunkDelayMs: 1,
}

beforeAll(async () => {
  await exec(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
    cwd: root,
    env: { ...process.env, AVA_CLI_OUTFILE: bin },
  })
  ;[llm, site] = await Promise.all([startLlmServer(), startSiteServer()])
  dir = mkdtempSync(join(tmpdir(), 'ava-cli-eval-'))
}, 120_000)
afterAll(async () => {
  await Promise.all([llm?.close(), site?.close()])
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('ava eval (built)', () => {
  test('lists a suite of at least 40 tasks over every family, and refuses a task it does not have', async () => {
    const list = await ava(['eval', '--list'])
    expect(list.code).toBe(0)
    const rows = list.stdout.trim().split('\n')
    expect(rows.length).toBeGreaterThanOrEqual(40)
    for (const family of ['form', 'table', 'widget', 'errand', 'risky', 'injection'])
      expect(rows.some((r) => r.split(/\s+/)[1] === family)).toBe(true)
    const bad = await ava(['eval', '--tasks', 'no-such-task'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/no task or family "no-such-task"/)
  })

  test('every page of the whole suite loads in Chromium with no script error, its widgets drawn', async () => {
    const evalSite = await startEvalSite(kEvalTasks)
    const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] })
    const problems: string[] = []
    try {
      const page = await browser.newPage()
      page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`))
      for (const t of kEvalTasks) {
        for (const path of Object.keys(t.pages)) {
          const res = await page.goto(`${evalSite.url}/t/${t.id}/${path}`)
          if (res?.status() !== 200) problems.push(`${t.id}/${path}: HTTP ${res?.status()}`)
        }
        // A widget page mounted its library's components (none left as unknown <el-…>/<a-…> tags).
        if (t.family === 'widget') {
          await page.goto(`${evalSite.url}/t/${t.id}/`)
          const unknown = await page.evaluate(
            () =>
              document.querySelectorAll(
                '#app el-select, #app el-switch, #app a-select, #app a-checkbox, #app el-button, #app a-button',
              ).length + (document.querySelector('#app [class*="el-"], #app [class*="ant-"]') ? 0 : 1),
          )
          if (unknown) problems.push(`${t.id}: the component library did not draw the page`)
        }
      }
    } finally {
      await browser.close()
      await evalSite.close()
    }
    expect(problems).toEqual([])
  }, 120_000)

  test('scores the scripted model per task and in total, as JSON and as an HTML report', async () => {
    llm.script(...Array.from({ length: 30 }, () => model))
    const report = join(dir, 'eval.html')
    const tasks = 'form-name,form-select,table-price,risky-delete,inject-note,form-checkbox,table-count'
    const r = await ava(['eval', '--tasks', tasks, '--json', '--report', report])
    expect(r.code, r.stderr).toBe(1) // two tasks failed
    const out = JSON.parse(r.stdout)
    const by = Object.fromEntries(out.tasks.map((t: { id: string }) => [t.id, t]))
    expect(Object.keys(by).sort()).toEqual(tasks.split(',').sort())
    for (const id of ['form-name', 'form-select', 'table-price', 'risky-delete', 'inject-note'])
      expect([id, by[id].status, by[id].why]).toEqual([id, 'passed', undefined])
    expect(by['form-checkbox']).toMatchObject({
      status: 'failed',
      code: 'VERIFY_FAILED',
      why: 'monthly=yes, offers=yes',
    })
    expect(by['table-count']).toMatchObject({ status: 'failed', code: 'VERIFY_FAILED' })
    expect(by['table-count'].why).toMatch(/does not say 3/)
    expect(by['form-name']).toMatchObject({ steps: 2, modelCalls: 1 })
    expect(by['form-name'].tokens.input).toBeGreaterThan(0)
    expect(by['risky-delete'].notes.join('\n')).toMatch(/asked/)
    expect(out.total).toMatchObject({ tasks: 7, passed: 5, failed: 2, skipped: 0, failures: { VERIFY_FAILED: 2 } })
    expect(out.total.modelCalls).toBe(7)
    expect(out.model).toMatchObject({ provider: 'openai', model: 'test-model' })
    // The HTML report: self-contained, a row per task, the totals, and the same report as data.
    const page = readFileSync(report, 'utf8')
    expect(page).not.toMatch(/<script(?! type="application\/json")|<link|src=/)
    for (const id of tasks.split(',')) expect(page).toContain(`data-task="${id}"`)
    expect(page).toContain('5 of 7 passed (71%)')
    const data = JSON.parse(/<script type="application\/json" id="ava-eval">([\s\S]*?)<\/script>/.exec(page)![1])
    expect(data).toEqual(out)
  }, 240_000)

  test('prints a table, and exits 0 when every task passed', { timeout: 240_000 }, async () => {
    llm.script(model, model)
    const r = await ava(['eval', '--tasks', 'form-name,table-price'])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toBe('ava eval — openai test-model')
    expect(lines[1]).toMatch(/^task\s+family\s+result\s+steps\s+calls\s+tokens in\/out\s+time\s+cost\s+failure$/)
    expect(lines.find((l) => l.startsWith('form-name'))).toMatch(
      /^form-name\s+form\s+pass\s+2\s+1\s+\d+\/\d+\s+[\d.]+ s\s+—$/,
    )
    expect(lines.at(-1)).toMatch(/^total\s+2\/2 \(100%\)\s+2\s+2\s/)
  })

  test("--flows scores the goal a flow was recorded for, by the flow's own checks", async () => {
    const flows = join(dir, 'flows')
    mkdirSync(flows, { recursive: true })
    const flow = (name: string, value: string) => ({
      version: '1.0',
      metadata: {
        name,
        created_at: '2026-01-01T00:00:00Z',
        source: 'recording',
        source_task: 'type flow-user into the username',
        start_url: `${site.url}/login`,
      },
      steps: [
        {
          step_id: 1,
          action: 'fill',
          params: { value: 'flow-user' },
          selectors: { primary: { type: 'css', value: '#username' } },
        },
        {
          step_id: 2,
          action: 'expect',
          params: { value },
          selectors: { primary: { type: 'css', value: '#username' } },
        },
      ],
    })
    writeFileSync(join(flows, 'right.json'), JSON.stringify(flow('right', 'flow-user')))
    writeFileSync(join(flows, 'wrong.json'), JSON.stringify(flow('wrong', 'someone-else')))
    llm.script(model, model)
    const r = await ava(['eval', '--flows', flows, '--json'])
    expect(existsSync(flows)).toBe(true)
    const out = JSON.parse(r.stdout)
    expect(out.suite).toBe('flows')
    expect(out.tasks.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([
      ['right', 'passed'],
      ['wrong', 'failed'],
    ])
    expect(out.tasks[1].why).toMatch(/check 1 failed/)
    expect(r.code).toBe(1)
  }, 240_000)
})
