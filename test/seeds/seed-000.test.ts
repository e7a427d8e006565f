import { describe, expect, it } from 'vitest'
import {
  createActionApi,
  createEngine,
  createRegistry,
  dryRun,
  parseGlobalConfig,
  validatePack,
  waitConditionKind,
  type ActionCommand,
  type ActionResult,
} from '../../src/core/registry'
import { parseSelector } from '../../src/core/page/selectors'
import { main } from '../../src/cli/ava'
import { FakePort, withUserScripts } from '../core/registry/fake-port'

// Seed 000 (../shared/seeds/000_fd539aec12ac66cd.txt) checked table by table: each row of a table
// is transcribed below as data, and a step written exactly as the seed shows it must validate and
// then run on the in-memory port (§4.4.5 MockBrowserAdapter) with the call the row maps it to.
// The test-case tables of §8 have their own files: §8.1 test/core/registry/validator.test.ts,
// §8.2 interpolate.test.ts, §8.3 expr.test.ts, §8.4 engine.test.ts (same folder).

interface StepRow {
  /** The "Step Action" column. */
  action: string
  /** The "映射到" column: the port method the step must call (or what must happen instead). */
  mapsTo: string
  /** The "参数说明" column's arguments, with a value each, written as a pack author would. */
  args: Record<string, unknown>
}

// §6.3.5 Step Action 映射, one row per line of the table, in the table's order.
const kStepTable: StepRow[] = [
  { action: 'click', mapsTo: 'click', args: { selector: 'css:#save' } }, // selector: 元素选择器
  { action: 'fill', mapsTo: 'fill', args: { selector: 'css:#name', value: 'Alice' } }, // selector, value: 填充值
  { action: 'type', mapsTo: 'type', args: { selector: 'css:#name', text: 'Alice' } }, // selector, text: 逐字输入
  { action: 'press', mapsTo: 'press', args: { key: 'Enter' } }, // key: 按键名称
  { action: 'wait', mapsTo: 'waitFor', args: { condition: 'css:.dialog', timeout: 5000 } }, // condition, timeout
  { action: 'snapshot', mapsTo: 'snapshot', args: {} }, // 无参数，返回页面快照
  { action: 'find', mapsTo: 'find', args: { query: '新建 button' } }, // query: 语义化查询
  { action: 'eval', mapsTo: 'runUserScript', args: { script: 'return document.title' } }, // script: JS 代码
  { action: 'open', mapsTo: 'navigate', args: { url: 'https://example.test/list' } }, // url: 目标地址
  { action: 'run', mapsTo: 'execute', args: { action: 'demo:helper:noop', params: { n: 1 } } }, // action, params: 递归调用其他 Action
  { action: 'fail', mapsTo: 'ActionError', args: { message: 'Stopped on purpose' } }, // message: 主动失败
]

/** A pack around one step, in YAML as the seed writes it (args as a flow map of JSON values). */
function packWith(row: StepRow): string {
  return `namespace: demo
version: 1.0.0
actions:
  step:under-test:
    description: Runs the step of one row of §6.3.5.
    steps:
      - action: ${row.action}
        args: ${JSON.stringify(row.args)}
  helper:noop:
    description: The target of run.
    params:
      n:
        type: number
        description: Any number.
    steps:
      - action: wait
        args: { condition: 0 }
`
}

function engineFor(text: string, port: FakePort) {
  const registry = createRegistry()
  const load = registry.load([{ source: 'user', files: [{ path: 'demo.yaml', text }] }])
  return { load, engine: createEngine({ registry, port, sleep: async () => undefined }) }
}

/** The port calls of a run, minus element lookups: what the step did. */
const acted = (port: FakePort): string[] => port.calls.filter((c) => c.method !== 'query').map((c) => c.method)

describe('seed 000 §6.3.5: every step action takes the arguments the seed names', () => {
  it('the table has every step action of the seed, once', () => {
    expect(kStepTable.map((r) => r.action)).toEqual([
      'click',
      'fill',
      'type',
      'press',
      'wait',
      'snapshot',
      'find',
      'eval',
      'open',
      'run',
      'fail',
    ])
  })

  for (const row of kStepTable) {
    it(`${row.action} ${Object.keys(row.args).join(', ') || '(no arguments)'} validates and maps to ${row.mapsTo}`, async () => {
      const text = packWith(row)
      const checked = validatePack(text, { file: 'demo.yaml' })
      expect(checked.issues.filter((i) => i.severity === 'error')).toEqual([])

      const port = withUserScripts(
        new FakePort(['css:#save', 'css:#name', 'css:.dialog', 'find:新建 button']),
        () => 'Demo',
      )
      const { load, engine } = engineFor(text, port)
      expect(load.issues.filter((i) => i.severity === 'error')).toEqual([])
      const result: ActionResult = await engine.run('demo:step:under-test')

      if (row.mapsTo === 'ActionError') {
        expect(result).toMatchObject({ success: false, error: { code: 'STEP_FAILED', step: 1, stepAction: 'fail' } })
        expect(result.error?.message).toContain('Stopped on purpose')
        expect(acted(port)).toEqual([])
        return
      }
      expect(result.error).toBeUndefined()
      expect(result.success).toBe(true)
      if (row.mapsTo === 'execute') {
        // The recursive call ran the other action, with the params the step gave it.
        // (The trace lists steps as they finish: the inner step first.)
        expect(result.trace.map((t) => [t.owner, t.action, t.status])).toEqual([
          ['demo:helper:noop', 'wait', 'ok'],
          ['demo:step:under-test', 'run', 'ok'],
        ])
        expect(result.trace[1].input).toEqual(row.args)
        return
      }
      expect(acted(port)).toEqual([row.mapsTo])
    })
  }

  it('the seed-conformant wait times out after its own timeout, not the step default', async () => {
    const row = kStepTable.find((r) => r.action === 'wait')!
    const port = new FakePort(['css:.dialog'])
    const { engine } = engineFor(packWith(row), port)
    await engine.run('demo:step:under-test')
    const wait = port.calls.find((c) => c.method === 'waitFor')
    expect(wait?.args).toEqual([
      { kind: 'selector', selector: expect.objectContaining({ raw: 'css:.dialog' }), state: 'visible' },
      5000,
    ])
  })
})

// §6.3.5 wait: `condition` is a selector, a text, a URL pattern or an expression (docs/action-packs.md
// "wait" says how the kind is told apart). One row per kind, and the aliases of before the seed.
const kWaitConditions: Array<{ condition: string | number; kind: string; call: unknown }> = [
  { condition: 'css:.el-dialog', kind: 'selector', call: { kind: 'selector', state: 'visible' } },
  { condition: '.el-dialog', kind: 'selector', call: { kind: 'selector', state: 'visible' } },
  { condition: '//div[@role="dialog"]', kind: 'selector', call: { kind: 'selector', state: 'visible' } },
  { condition: 'text:保存成功', kind: 'selector', call: { kind: 'selector', state: 'visible' } },
  { condition: 'url:*/dashboard', kind: 'url', call: { kind: 'url', pattern: '*/dashboard' } },
  { condition: 'https://example.test/done', kind: 'url', call: { kind: 'url', pattern: 'https://example.test/done' } },
  { condition: "js:document.readyState === 'complete'", kind: 'script', call: 'runUserScript' },
  { condition: 1500, kind: 'ms', call: 'sleep' },
]

describe('seed 000 §6.3.5: wait { condition, timeout } tells a selector, a text, a URL and an expression apart', () => {
  for (const row of kWaitConditions) {
    it(`${JSON.stringify(row.condition)} is a ${row.kind}`, async () => {
      expect(waitConditionKind(row.condition).kind).toBe(row.kind)
      const step = { action: 'wait', mapsTo: 'waitFor', args: { condition: row.condition, timeout: 2000 } }
      const checked = validatePack(packWith(step), { file: 'demo.yaml' })
      expect(checked.issues.filter((i) => i.severity === 'error')).toEqual([])
      const raw = typeof row.condition === 'string' && row.kind === 'selector' ? row.condition : undefined
      const port = withUserScripts(new FakePort(raw ? [raw] : []), () => true)
      const slept: number[] = []
      const registry = createRegistry()
      registry.load([{ source: 'user', files: [{ path: 'demo.yaml', text: packWith(step) }] }])
      const engine = createEngine({ registry, port, sleep: async (ms) => void slept.push(ms) })
      const result = await engine.run('demo:step:under-test')
      expect(result.error).toBeUndefined()
      if (row.call === 'sleep') expect(slept).toEqual([row.condition])
      else if (row.call === 'runUserScript') {
        const call = port.calls.find((c) => c.method === 'runUserScript')
        expect(call?.args[0]).toContain("document.readyState === 'complete'")
        expect(call?.args[1]).toMatchObject({ timeoutMs: 2000 })
      } else {
        const call = port.calls.find((c) => c.method === 'waitFor')
        expect(call?.args[0]).toMatchObject(row.call as object)
        if (raw) expect((call?.args[0] as { selector: { raw: string } }).selector.raw).toBe(raw)
      }
    })
  }

  it('a wait whose js: expression stays false times out and falls back like any other wait', async () => {
    const step = { action: 'wait', mapsTo: 'waitFor', args: { condition: 'js:window.ready === true', timeout: 100 } }
    const port = withUserScripts(new FakePort(), () => false)
    const { engine } = engineFor(packWith(step), port)
    const result = await engine.run('demo:step:under-test')
    expect(result.success).toBe(true)
    expect(result.trace[0]).toMatchObject({ status: 'recovered', fellBack: { code: 'TIMEOUT' } })
  })

  it('a selector condition written with an alias tries its primary, then its fallbacks (§6.6.2), in the plan and the run', async () => {
    const text = `namespace: demo
version: 1.0.0
selectors:
  dialog:
    primary: "css:.el-dialog"
    fallback: ["role:dialog"]
actions:
  dialog:wait:
    description: Waits for the dialog.
    steps:
      - action: wait
        args: { condition: "\${selectors.dialog}", timeout: 1000 }
`
    const port = new FakePort(['role:dialog'])
    const registry = createRegistry()
    registry.load([{ source: 'user', files: [{ path: 'demo.yaml', text }] }])
    const plan = dryRun(registry, 'demo:dialog:wait', {})
    expect(plan.plan?.steps[0].selectors).toEqual({ condition: { candidates: ['css:.el-dialog', 'role:dialog'] } })
    const result = await createEngine({ registry, port, sleep: async () => undefined }).run('demo:dialog:wait')
    expect(result.trace[0]).toMatchObject({ status: 'ok', selectors: { condition: 'role:dialog' } })
  })

  it('the forms before the seed stay as aliases', () => {
    for (const args of [{ ms: 10 }, { selector: 'css:.x', state: 'hidden' }, { text: 'Saved' }, { url: '*/done' }]) {
      const checked = validatePack(packWith({ action: 'wait', mapsTo: 'waitFor', args }), { file: 'demo.yaml' })
      expect(
        checked.issues.filter((i) => i.severity === 'error'),
        JSON.stringify(args),
      ).toEqual([])
    }
  })

  it('wrong waits are refused with what is allowed', () => {
    const codes = (args: Record<string, unknown>) =>
      validatePack(packWith({ action: 'wait', mapsTo: 'waitFor', args }), { file: 'demo.yaml' })
        .issues.filter((i) => i.severity === 'error')
        .map((i) => `${i.code} ${i.message}`)
    expect(codes({ condition: 'css:.a', selector: 'css:.b' })).toEqual([
      'INVALID_STEP_ARGS Step "wait": wait takes exactly one of condition, ms, selector, text, url.',
    ])
    expect(codes({ condition: 'url:*/x', state: 'hidden' })).toEqual([
      'INVALID_STEP_ARGS Step "wait": state applies only to a wait for an element (a selector condition).',
    ])
    expect(codes({ condition: 'css:' }).join()).toMatch(/INVALID_SELECTOR/)
    expect(codes({ condition: 'css:.a', timeout: 0 }).join()).toMatch(/INVALID_STEP_ARGS/)
  })
})

// §5.1.1 全局配置: the seed's example file, key for key (its paths under ~/.agent-browser read as
// any other folder), must be a valid Ava config holding what the seed says it holds.
const kSeedConfig = `actions:
  # 额外加载路径
  paths:
    - "~/.agent-browser/actions"
    - "./.agent-browser/actions"

  # npm 包
  packages:
    - "@company/ab-actions-eresh"

  # 默认超时 (ms)
  default_timeout: 5000

  # 调试模式
  debug: false

  # 版本检测
  detect_version: true
`

describe('seed 000 §5.1.1: the global config file', () => {
  it("the seed's example parses to what it says", () => {
    const parsed = parseGlobalConfig(kSeedConfig, 'config.yaml')
    expect(parsed).toEqual({
      ok: true,
      config: {
        actions: {
          paths: ['~/.agent-browser/actions', './.agent-browser/actions'],
          packages: ['@company/ab-actions-eresh'],
          default_timeout: 5000,
          debug: false,
          detect_version: true,
        },
      },
    })
  })

  it('an unknown or mistyped key is an error at its line and column', () => {
    const parsed = parseGlobalConfig('actions:\n  default_timeout: fast\n  debgu: true\n', 'config.yaml')
    expect(parsed.ok).toBe(false)
    if (parsed.ok) return
    expect(parsed.issues.map((i) => `${i.line}:${i.col} ${i.code}`)).toEqual(
      expect.arrayContaining(['3:3 UNKNOWN_FIELD', '2:20 INVALID_VALUE']),
    )
  })
})

// §3.1.2 接口列表: every method of the action API, as a command of §3.1.1.
const kApiTable: Array<{ command: ActionCommand; answers: (r: unknown) => boolean }> = [
  { command: { type: 'action.list' }, answers: (r) => Array.isArray(r) }, // NamespaceInfo[]
  { command: { type: 'action.describe', action: 'demo:helper:noop' }, answers: (r) => (r as { ok: boolean }).ok }, // ActionDefinition
  {
    command: { type: 'action.run', action: 'demo:helper:noop', params: { n: 1 } },
    answers: (r) => (r as ActionResult).success,
  }, // ActionResult
  {
    command: { type: 'action.dryRun', action: 'demo:helper:noop', params: { n: 1 } },
    answers: (r) => (r as { success: boolean }).success,
  }, // DryRunResult
  {
    command: { type: 'action.debug', action: 'demo:helper:noop', params: { n: 1 } },
    answers: (r) => ((r as ActionResult).log ?? []).length > 0,
  }, // ActionResult + 详细日志
  {
    command: { type: 'action.validate', path: 'demo.yaml', text: packWith(kStepTable[0]) },
    answers: (r) => (r as { ok: boolean }).ok,
  }, // ValidationResult
  { command: { type: 'action.search', query: 'target' }, answers: (r) => (r as unknown[]).length > 0 }, // ActionInfo[]
  { command: { type: 'action.reload' } as ActionCommand, answers: (r) => (r as { success: boolean }).success }, // { success: boolean }
]

describe('seed 000 §3.1.2: the action API answers every method of the table', () => {
  for (const row of kApiTable) {
    it(row.command.type, async () => {
      const text = packWith(kStepTable[0])
      const registry = createRegistry(() => [{ source: 'user', files: [{ path: 'demo.yaml', text }] }])
      registry.load([{ source: 'user', files: [{ path: 'demo.yaml', text }] }])
      const engine = createEngine({ registry, port: new FakePort(), sleep: async () => undefined })
      const api = createActionApi({ registry, getEngine: () => engine })
      expect(row.answers(await api.handle(row.command))).toBe(true)
    })
  }
})

// §3.2 CLI 接口: each command line of the seed, under `ava` (the seed's `agent-browser`).
const kCliTable = [
  'action list [namespace]',
  'action describe <action> [--json]',
  'action search <keyword>',
  'action run <action> [--param value...]',
  'action validate <file>',
  'action reload',
  'action dry-run <action> [params]',
  'action debug <action> [params]',
]

describe('seed 000 §3.2: every command of the CLI table exists, with its help', () => {
  for (const line of kCliTable) {
    it(line, async () => {
      const words = line.split(' ').filter((w) => /^[a-z-]+$/.test(w))
      const out: string[] = []
      const code = await main([...words, '--help'], { out: (l) => out.push(l), err: (l) => out.push(l) })
      expect(code).toBe(0)
      expect(out.join('\n')).toMatch(new RegExp(`^Usage: ava ${words.join(' ')} `))
    })
  }
})

// §6.6.3 选择器类型支持: each prefix of the table, with the seed's own example.
const kSelectorTable: Array<[string, string]> = [
  ['css:.ant-btn-primary', 'css'], // CSS Selector
  ["xpath://button[@type='submit']", 'xpath'], // XPath
  ["role:button[name='Submit']", 'role'], // ARIA Role
  ['text:提交', 'text'], // Text Content
  ['testid:submit-btn', 'testid'], // Test ID
  ['.ant-btn-primary', 'css'], // (无) 自动检测，默认为 CSS
]

describe('seed 000 §6.6.3: every selector type of the table parses to its kind', () => {
  for (const [selector, kind] of kSelectorTable) {
    it(`${selector} is ${kind}`, () => {
      expect(parseSelector(selector).kind).toBe(kind)
      const row = { action: 'click', mapsTo: 'click', args: { selector } }
      expect(validatePack(packWith(row), { file: 'demo.yaml' }).issues.filter((i) => i.severity === 'error')).toEqual(
        [],
      )
    })
  }
})
