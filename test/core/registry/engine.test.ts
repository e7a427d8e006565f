import { describe, it, expect } from 'vitest'
import { failureHint } from '../../../src/core/failure'
import { renderEn } from '../../../src/core/locales/render'
import {
  createEngine,
  createRegistry,
  dryRun,
  kUserScriptsHint,
  type ActionRegistry,
  type EngineOptions,
} from '../../../src/core/registry'
import { FakePort, withUserScripts } from './fake-port'

function registryOf(...packs: string[]): ActionRegistry {
  const registry = createRegistry()
  const result = registry.load([{ source: 'user', files: packs.map((text, i) => ({ path: `p${i}.yaml`, text })) }])
  const errors = result.issues.filter((i) => i.severity === 'error')
  if (errors.length)
    throw new Error(errors.map((e) => `${e.file}:${e.line}:${e.col} ${e.code} ${e.message}`).join('\n'))
  return registry
}

const kPack = `namespace: eresh
version: 1.0.0
compatibility:
  version_global: Eresh.version
  min_version: 3.0.0
  version_overrides:
    "<4.0.0":
      selectors:
        dialog: "css:.v3-dialog"
selectors:
  dialog:
    primary: "css:.e-dialog"
    fallback: ["role:dialog"]
  trigger: "css:.trigger"
actions:
  dialog:open:
    description: Open a dialog by its trigger text.
    params:
      trigger:
        type: string
        description: Trigger text
        required: true
      fast:
        type: boolean
        description: Skip waiting
        default: false
    steps:
      - action: click
        args:
          selector: "text:\${params.trigger}"
      - action: wait
        when: "!\${params.fast}"
        args:
          selector: "\${selectors.dialog}"
      - action: find
        output: found
        args:
          query: "dialog \${params.trigger}"
    returns:
      ref: "\${steps.found.ref}"
      trigger: "\${params.trigger}"
    verify:
      - condition: "\${steps.found} != null"
        message: "No dialog for \${params.trigger}"
        message_zh: "\${params.trigger} 没有打开对话框"
  flaky:click:
    description: A click that may need retries.
    steps:
      - action: click
        retry: 2
        retryDelay: 1
        args:
          selector: "\${selectors.trigger}"
  fallback:click:
    description: A click with a fallback path.
    params:
      policy:
        type: enum
        description: onError policy
        values: [abort, continue, fallback]
        default: abort
    steps:
      - action: click
        args:
          selector: "\${selectors.trigger}"
        fallback:
          - action: press
            args:
              key: Enter
      - action: getUrl
        output: url
    returns:
      url: "\${steps.url}"
  continue:click:
    description: A click whose failure is ignored.
    steps:
      - action: click
        onError: continue
        timeout: 200
        args:
          selector: "css:.missing"
      - action: getUrl
        output: url
  abort:click:
    description: A click whose failure stops the action.
    steps:
      - action: click
        timeout: 200
        args:
          selector: "css:.missing"
      - action: getUrl
  slow:step:
    description: A step slower than its timeout.
    steps:
      - action: snapshot
        timeout: 50
  fail:always:
    description: Fails with a message.
    params:
      why:
        type: string
        description: Reason
        default: no reason
    steps:
      - action: fail
        args:
          message: "Refused: \${params.why}"
  auth:login:
    description: Secret handling.
    params:
      user:
        type: string
        description: User
        required: true
      password:
        type: string
        description: Password
        required: true
        secret: true
    steps:
      - action: fill
        args:
          selector: "css:#user"
          value: "\${params.user}"
      - action: fill
        args:
          selector: "css:#pass"
          value: "\${params.password}"
      - action: fill
        args:
          selector: "css:#token"
          value: "\${env.API_TOKEN}"
      - action: getText
        output: echo
        args:
          selector: "css:#echo"
    returns:
      password: "\${params.password}"
      echo: "\${steps.echo}"
  script:run:
    description: Runs an eval step.
    steps:
      - action: eval
        output: result
        args:
          script: "return 40 + 2"
    returns:
      result: "\${steps.result}"
  nav:go:
    description: Navigates, then clicks.
    steps:
      - action: click
        args:
          selector: "\${selectors.dialog}"
      - action: open
        args:
          url: https://example.test/next
      - action: click
        args:
          selector: "\${selectors.dialog}"
`

function setup(present: string[] = [], options: Partial<EngineOptions> = {}) {
  const registry = registryOf(kPack)
  const port = new FakePort(present)
  const engine = createEngine({ registry, port, stepTimeoutMs: 1000, ...options })
  return { registry, port, engine }
}

describe('the step engine', () => {
  it('正常执行: runs every step of dialog:open in order and builds returns', async () => {
    const { engine, port } = setup(['text:新建', 'css:.e-dialog', 'find:dialog 新建'])
    const result = await engine.run('eresh:dialog:open', { trigger: '新建' })
    expect(result.error).toBeUndefined()
    expect(result.success).toBe(true)
    expect(port.actions()).toEqual(['click text:新建', 'waitFor', 'find dialog 新建'])
    expect(result.data).toEqual({ ref: 'e5', trigger: '新建' })
    expect(result.trace.map((t) => [t.id, t.action, t.status])).toEqual([
      ['1', 'click', 'ok'],
      ['2', 'wait', 'ok'],
      ['3', 'find', 'ok'],
    ])
  })

  it('条件跳过: a step whose when is false is skipped', async () => {
    const { engine, port } = setup(['text:新建', 'find:dialog 新建'])
    const result = await engine.run('eresh:dialog:open', { trigger: '新建', fast: true })
    expect(result.success).toBe(true)
    expect(port.actions()).toEqual(['click text:新建', 'find dialog 新建'])
    expect(result.trace[1]).toMatchObject({ action: 'wait', status: 'skipped' })
  })

  it('重试成功: retry 2 succeeding on the second attempt is a success without error', async () => {
    const { engine, port } = setup(['css:.trigger'])
    port.failures.set('click', 1)
    const result = await engine.run('eresh:flaky:click')
    expect(result.success).toBe(true)
    expect(result.error).toBeUndefined()
    expect(result.trace[0].attempts).toBe(2)
    expect(port.actions()).toEqual(['click css:.trigger', 'click css:.trigger'])
  })

  it('retries stop after retry + 1 attempts', async () => {
    const { engine, port } = setup(['css:.trigger'])
    port.failures.set('click', 5)
    const result = await engine.run('eresh:flaky:click')
    expect(result.error).toMatchObject({ code: 'STEP_FAILED', step: 1, stepAction: 'click' })
    expect(port.actions()).toHaveLength(3)
  })

  it('降级成功: the primary path fails, the fallback succeeds, and the degradation is recorded', async () => {
    const { engine, port } = setup(['css:.trigger'])
    port.failures.set('click', 1)
    const result = await engine.run('eresh:fallback:click')
    expect(result.success).toBe(true)
    expect(result.fallbacksUsed).toEqual(['1'])
    expect(port.actions()).toEqual(['click css:.trigger', 'press Enter', 'getUrl'])
    expect(result.trace.map((t) => [t.id, t.status])).toEqual([
      ['1.fallback.1', 'ok'],
      ['1', 'recovered'],
      ['2', 'ok'],
    ])
  })

  it('最大深度: a run chain deeper than 10 fails with MAX_DEPTH_EXCEEDED', async () => {
    const chain = (n: number) =>
      `namespace: deep\nversion: 1.0.0\nactions:\n${Array.from({ length: n }, (_, i) =>
        i < n - 1
          ? `  level:l${i}:\n    description: Level ${i}\n    steps:\n      - action: run\n        args: { action: level:l${i + 1} }\n`
          : `  level:l${i}:\n    description: Bottom\n    steps:\n      - action: wait\n        args: { ms: 0 }\n`,
      ).join('')}`
    const ten = await createEngine({ registry: registryOf(chain(10)) }).run('deep:level:l0')
    expect(ten.success).toBe(true)
    const eleven = await createEngine({ registry: registryOf(chain(11)) }).run('deep:level:l0')
    expect(eleven.success).toBe(false)
    expect(eleven.error).toMatchObject({ code: 'MAX_DEPTH_EXCEEDED', action: 'deep:level:l10' })
    // What to do about it is the code's hint, said from the locale table (src/core/failure.ts).
    expect(renderEn(failureHint(eleven.error!.code)!)).toMatch(/flatten/)
  })
})

describe('errors come back as results', () => {
  it("ACTION_NOT_FOUND with the closest name, and the code's hint", async () => {
    const { engine } = setup()
    const result = await engine.run('eresh:dialog:opn')
    expect(result.error).toMatchObject({
      code: 'ACTION_NOT_FOUND',
      message: 'No action "eresh:dialog:opn". Did you mean "eresh:dialog:open"?',
    })
    expect(renderEn(failureHint(result.error!.code)!)).toContain('ava action list')
  })
  it('PARAM_REQUIRED and PARAM_INVALID', async () => {
    const { engine } = setup()
    expect((await engine.run('eresh:dialog:open', {})).error?.code).toBe('PARAM_REQUIRED')
    expect((await engine.run('eresh:dialog:open', { trigger: 'x', fast: 'maybe' })).error).toMatchObject({
      code: 'PARAM_INVALID',
      details: { param: 'fast' },
    })
    expect((await engine.run('eresh:dialog:open', { trigger: 'x', extra: 1 })).error?.message).toContain(
      'Unknown parameter "extra"',
    )
  })
  it('coerces string params the CLI and the planner pass', async () => {
    const { engine, port } = setup(['text:新建', 'find:dialog 新建'])
    expect((await engine.run('eresh:dialog:open', { trigger: '新建', fast: 'true' })).success).toBe(true)
    expect(port.actions()).not.toContain('waitFor')
  })
  it('ELEMENT_NOT_FOUND lists the candidates tried', async () => {
    const { engine } = setup()
    const result = await engine.run('eresh:abort:click')
    expect(result.error).toMatchObject({ code: 'ELEMENT_NOT_FOUND', step: 1, stepAction: 'click' })
    expect(result.error?.message).toContain('tried "css:.missing"')
  })
  it('ELEMENT_NOT_FOUND names a pack selector by its name, not by the template that names it', async () => {
    const { engine } = setup()
    const result = await engine.run('eresh:flaky:click')
    expect(result.error?.message).toContain('No element matches selector "trigger"; tried "css:.trigger"')
    expect(result.error?.message).not.toContain('${')
  })
  it('TIMEOUT when a step outlives its timeout', async () => {
    const { engine, port } = setup()
    port.delays.set('snapshot', 500)
    const result = await engine.run('eresh:slow:step')
    expect(result.error?.code).toBe('TIMEOUT')
  })
  it('TIMEOUT when the whole action outlives the action timeout', async () => {
    const { engine, port } = setup([], { actionTimeoutMs: 20 })
    port.delays.set('snapshot', 45)
    const started = Date.now()
    const result = await engine.run('eresh:slow:step')
    expect(result.error).toMatchObject({
      code: 'TIMEOUT',
      message: 'Action eresh:slow:step did not finish within 20 ms.',
    })
    expect(Date.now() - started).toBeLessThan(400)
  })
  it('STEP_FAILED with the message of a fail step', async () => {
    const { engine } = setup()
    const result = await engine.run('eresh:fail:always', { why: 'not today' })
    expect(result.error).toMatchObject({ code: 'STEP_FAILED', message: 'Step 1 (fail) failed: Refused: not today' })
  })
  it('VERIFY_FAILED when verify does not hold', async () => {
    const { engine } = setup(['text:x', 'css:.e-dialog'])
    const result = await engine.run('eresh:dialog:open', { trigger: 'x' })
    // find returns null on this page, so step 3 fails first; make find succeed but verify fail:
    expect(result.error?.code).toBe('ELEMENT_NOT_FOUND')
    const registry = registryOf(
      kPack.replace('condition: "${steps.found} != null"', 'condition: "${steps.found.ref} == \'other\'"'),
    )
    const port = new FakePort(['text:x', 'css:.e-dialog', 'find:dialog x'])
    const verify = await createEngine({ registry, port }).run('eresh:dialog:open', { trigger: 'x' })
    expect(verify.error).toMatchObject({
      code: 'VERIFY_FAILED',
      message: 'No dialog for x',
      details: { messageZh: 'x 没有打开对话框' },
    })
  })
  it('VERSION_INCOMPATIBLE below min_version', async () => {
    const { engine, port } = setup(['text:x'])
    port.globals.set('Eresh.version', '2.9.0')
    expect((await engine.run('eresh:dialog:open', { trigger: 'x' })).error?.code).toBe('VERSION_INCOMPATIBLE')
  })
  it('dumps the context on error, secrets masked', async () => {
    const { engine } = setup()
    const result = await engine.run('eresh:abort:click')
    expect(result.context).toMatchObject({
      action: 'eresh:abort:click',
      depth: 0,
      selectors: { dialog: 'css:.e-dialog', trigger: 'css:.trigger' },
    })
  })
})

describe('onError policies', () => {
  it('continue records the failure and goes on', async () => {
    const { engine, port } = setup()
    const result = await engine.run('eresh:continue:click')
    expect(result.success).toBe(true)
    expect(port.actions()).toEqual(['getUrl'])
    expect(result.trace[0]).toMatchObject({ status: 'continued', error: { code: 'ELEMENT_NOT_FOUND' } })
    expect(result.warnings[0]).toContain('onError: continue')
  })
  it('abort (the default) stops at the failing step', async () => {
    const { engine, port } = setup()
    const result = await engine.run('eresh:abort:click')
    expect(result.success).toBe(false)
    expect(port.actions()).toEqual([])
  })
  it('a failed fallback falls through to the step policy', async () => {
    const { engine, port } = setup(['css:.trigger'])
    port.failures.set('click', 1)
    port.failures.set('press', 1)
    const result = await engine.run('eresh:fallback:click')
    expect(result.error).toMatchObject({ code: 'STEP_FAILED', step: 1 })
    expect(port.actions()).toEqual(['click css:.trigger', 'press Enter'])
  })
})

describe('versions and selectors in runs', () => {
  it('uses the override selectors of the detected version, with fallbacks', async () => {
    const { engine, port } = setup(['text:x', 'css:.v3-dialog', 'find:dialog x'])
    port.globals.set('Eresh.version', '3.5.0')
    const result = await engine.run('eresh:dialog:open', { trigger: 'x' })
    expect(result).toMatchObject({ success: true, version: '3.5.0' })
    expect(result.trace[1].selectors).toEqual({ selector: 'css:.v3-dialog' })
  })
  it('falls back to the next candidate of an alias', async () => {
    const { engine } = setup(['text:x', 'role:dialog', 'find:dialog x'])
    const result = await engine.run('eresh:dialog:open', { trigger: 'x' })
    expect(result.success).toBe(true)
    expect(result.trace[1].selectors).toEqual({ selector: 'role:dialog' })
  })
  it('caches the winning candidate and forgets it after navigation', async () => {
    const { engine, port } = setup(['role:dialog'])
    await engine.run('eresh:nav:go')
    const queried = port.calls.filter((c) => c.method === 'query').map((c) => (c.args[0] as { raw: string }).raw)
    // Step 1 tries primary then fallback; step 3 is another step: cache keys are per step.
    expect(queried).toEqual(['css:.e-dialog', 'role:dialog', 'css:.e-dialog', 'role:dialog'])
    expect(engine.cache.size).toBe(1)
    port.calls = []
    engine.clearSelectorCache()
    expect(engine.cache.size).toBe(0)
  })
})

describe('eval steps', () => {
  it('fail with instructions when user scripts are not allowed', async () => {
    const { engine } = setup()
    const result = await engine.run('eresh:script:run')
    expect(result.error?.code).toBe('STEP_FAILED')
    expect(result.error?.message).toContain(kUserScriptsHint)
    expect(result.error?.message).toContain('chrome://extensions')
    expect(result.error?.message).toContain('Allow User Scripts')
  })
  it('run through the port hook when it exists', async () => {
    const registry = registryOf(kPack)
    const port = withUserScripts(new FakePort(), () => 42)
    const result = await createEngine({ registry, port }).run('eresh:script:run')
    expect(result.data).toEqual({ result: 42 })
    expect(port.calls.find((c) => c.method === 'runUserScript')?.args[0]).toBe('return 40 + 2')
  })
})

describe('secrets', () => {
  it('never show secret params or env values in traces, logs, results or errors', async () => {
    const lines: string[] = []
    const { engine, port } = setup(['css:#user', 'css:#pass', 'css:#token', 'css:#echo'], {
      env: { API_TOKEN: 'tok-123456' },
      logger: (l) => lines.push(l),
    })
    port.texts.set('css:#echo', 'you typed hunter22!')
    const result = await engine.debug('eresh:auth:login', { user: 'bob', password: 'hunter22' })
    expect(result.success).toBe(true)
    // The port got the real values…
    expect(port.calls.filter((c) => c.method === 'fill').map((c) => c.args[1])).toEqual([
      'bob',
      'hunter22',
      'tok-123456',
    ])
    // …nothing shown has them.
    const shown = JSON.stringify(result) + lines.join('\n')
    expect(shown).not.toContain('hunter22')
    expect(shown).not.toContain('tok-123456')
    expect(result.data).toEqual({ password: '***', echo: 'you typed ***!' })
    expect(result.trace[1].input).toEqual({ selector: 'css:#pass', value: '***' })
    expect(result.trace[2].input).toEqual({ selector: 'css:#token', value: '***' })
    expect(lines.some((l) => l.includes('Resolved params: {"user":"bob","password":"***"}'))).toBe(true)
  })
  it('mask secrets inside failure messages and the context dump', async () => {
    const { engine, port } = setup(['css:#user', 'css:#pass'])
    port.fill = async (_t, value) => {
      throw new Error(`could not type ${value}`)
    }
    const result = await engine.run('eresh:auth:login', { user: 'bob', password: 'hunter22' })
    expect(JSON.stringify(result)).not.toContain('hunter22')
    expect(result.context?.params).toEqual({ user: 'bob', password: '***' })
  })
})

describe('debug mode', () => {
  it('logs each step with its duration and result', async () => {
    const { engine } = setup(['text:新建', 'css:.e-dialog', 'find:dialog 新建'])
    const result = await engine.debug('eresh:dialog:open', { trigger: '新建' })
    expect(result.log?.[0]).toBe('[DEBUG] Loading action: eresh:dialog:open')
    expect(result.log).toContain('[DEBUG] Step 1: click {"selector":"text:新建"}')
    expect(result.log?.filter((l) => l.startsWith('[DEBUG]   Duration:'))).toHaveLength(3)
    expect(result.trace.every((t) => t.durationMs >= 0)).toBe(true)
  })
  it('is off by default', async () => {
    const { engine } = setup(['text:新建', 'css:.e-dialog', 'find:dialog 新建'])
    expect((await engine.run('eresh:dialog:open', { trigger: '新建' })).log).toBeUndefined()
  })
})

describe('cancellation', () => {
  it('an aborted signal stops the run', async () => {
    const { engine, port } = setup()
    port.delays.set('snapshot', 300)
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 20)
    const result = await engine.run('eresh:slow:step', {}, { signal: controller.signal })
    expect(result.error?.message).toContain('cancelled')
  })
})

describe('dry run', () => {
  it('resolves params, conditions and selectors and executes nothing', () => {
    const { registry } = setup()
    const result = dryRun(registry, 'eresh:dialog:open', { trigger: '新建', fast: 'false' }, { version: '3.1.0' })
    expect(result.success).toBe(true)
    expect(result.plan?.overridesApplied).toEqual(['<4.0.0'])
    expect(result.plan?.steps.map((s) => [s.id, s.action, s.decision])).toEqual([
      ['1', 'click', 'run'],
      ['2', 'wait', 'run'],
      ['3', 'find', 'run'],
    ])
    expect(result.plan?.steps[1].selectors).toEqual({ selector: { candidates: ['css:.v3-dialog'] } })
    expect(result.text).toContain('1. click  selector=text:新建')
    expect(result.text).toContain('(dry run: nothing was executed)')
  })
  it('marks conditions over step outputs as decided at run time, and masks secrets', () => {
    const registry = registryOf(
      kPack.replace(
        '  nav:go:',
        `  cond:plan:
    description: Plans a conditional.
    params:
      pin:
        type: string
        description: A secret
        secret: true
        required: true
    steps:
      - action: getText
        output: status
        args: { selector: "css:.s" }
      - action: fill
        when: "\${steps.status} == 'locked'"
        args: { selector: "css:.pin", value: "\${params.pin}" }
  nav:go:`,
      ),
    )
    const result = dryRun(registry, 'eresh:cond:plan', { pin: '9876' })
    expect(result.plan?.steps[1]).toMatchObject({ decision: 'runtime', args: { value: '***' } })
    expect(JSON.stringify(result)).not.toContain('9876')
  })
  it('reports planning errors with codes', () => {
    const { registry } = setup()
    expect(dryRun(registry, 'eresh:dialog:open', {}).error?.code).toBe('PARAM_REQUIRED')
    expect(dryRun(registry, 'eresh:nope').error?.code).toBe('ACTION_NOT_FOUND')
    expect(dryRun(registry, 'eresh:dialog:open', { trigger: 'x' }, { version: '2.0.0' }).error?.code).toBe(
      'VERSION_INCOMPATIBLE',
    )
  })
})
