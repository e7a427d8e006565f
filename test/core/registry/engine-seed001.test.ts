import { describe, expect, it } from 'vitest'
import {
  createEngine,
  createRegistry,
  kWaitFallbackSettleMs,
  PortError,
  type ActionRegistry,
  type StepStart,
} from '../../../src/core/registry'
import { FakePort } from './fake-port'

// The step engine's run options: the runWorkflow options stopOnError / stepDelay, and the
// wait that, when it times out, falls back to "domcontentloaded + 500 ms".

function registryOf(text: string): ActionRegistry {
  const registry = createRegistry()
  const result = registry.load([{ source: 'user', files: [{ path: 'p.yaml', text }] }])
  const errors = result.issues.filter((i) => i.severity === 'error')
  if (errors.length) throw new Error(errors.map((e) => `${e.line}:${e.col} ${e.code} ${e.message}`).join('\n'))
  return registry
}

/** A page where waits never come true: waitFor rejects with TIMEOUT once its time is up. */
class SlowPage extends FakePort {
  loads: Array<{ state: string; timeoutMs: number }> = []
  loaded = true
  override async waitFor(condition: unknown, timeoutMs: number, signal: AbortSignal): Promise<void> {
    this.calls.push({ method: 'waitFor', args: [condition, timeoutMs] })
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, timeoutMs)
      signal.addEventListener('abort', () => {
        clearTimeout(t)
        reject(signal.reason)
      })
    })
    throw new PortError('TIMEOUT', `still waiting after ${timeoutMs} ms`)
  }
  async waitForLoad(state: 'domcontentloaded', timeoutMs: number): Promise<void> {
    this.calls.push({ method: 'waitForLoad', args: [state, timeoutMs] })
    this.loads.push({ state, timeoutMs })
    if (!this.loaded) throw new PortError('TIMEOUT', 'the document never loaded')
  }
}

const kPack = `namespace: s1
version: 1.0.0
actions:
  three:clicks:
    description: Three clicks; the second element is missing.
    steps:
      - action: click
        args: { selector: "css:#a" }
      - action: click
        timeout: 50
        args: { selector: "css:#missing" }
      - action: click
        args: { selector: "css:#c" }
  wait:dialog:
    description: Waits for a dialog that never comes, then clicks.
    steps:
      - action: wait
        args: { condition: "css:.dialog", timeout: 40 }
      - action: click
        args: { selector: "css:#a" }
  wait:insisting:
    description: Waits for a dialog and insists that it came.
    steps:
      - action: wait
        output: shown
        args: { condition: "css:.dialog", timeout: 40 }
    verify:
      - condition: "\${steps.shown}"
        message: No dialog came.
  wait:url:
    description: Waits for an address that never comes.
    steps:
      - action: wait
        args: { condition: "url:*/done", timeout: 40 }
`

describe('stopOnError (default true)', () => {
  it('by default the first failing step stops the run', async () => {
    const port = new FakePort(['css:#a', 'css:#c'])
    const result = await createEngine({ registry: registryOf(kPack), port }).run('s1:three:clicks')
    expect(result).toMatchObject({ success: false, error: { code: 'ELEMENT_NOT_FOUND', step: 2 } })
    expect(port.actions()).toEqual(['click css:#a'])
  })

  it('false: the run goes on past the failure and still fails, with the first error', async () => {
    const port = new FakePort(['css:#a', 'css:#c'])
    const result = await createEngine({ registry: registryOf(kPack), port }).run(
      's1:three:clicks',
      {},
      { stopOnError: false },
    )
    expect(port.actions()).toEqual(['click css:#a', 'click css:#c'])
    expect(result).toMatchObject({ success: false, error: { code: 'ELEMENT_NOT_FOUND', step: 2, stepAction: 'click' } })
    expect(result.trace.map((t) => t.status)).toEqual(['ok', 'failed', 'ok'])
    expect(result.warnings.join('\n')).toContain('stopOnError: false')
  })

  it('false with nothing failing is a plain success', async () => {
    const port = new FakePort(['css:#a', 'css:#missing', 'css:#c'])
    const result = await createEngine({ registry: registryOf(kPack), port }).run(
      's1:three:clicks',
      {},
      { stopOnError: false },
    )
    expect(result.success).toBe(true)
    expect(result.error).toBeUndefined()
  })
})

describe('stepDelay (default 0)', () => {
  it('pauses between steps, not before the first', async () => {
    const port = new FakePort(['css:#a', 'css:#missing', 'css:#c'])
    const slept: number[] = []
    const engine = createEngine({ registry: registryOf(kPack), port, sleep: async (ms) => void slept.push(ms) })
    expect((await engine.run('s1:three:clicks', {}, { stepDelay: 250 })).success).toBe(true)
    expect(slept).toEqual([250, 250])
    slept.length = 0
    await engine.run('s1:three:clicks')
    expect(slept).toEqual([])
  })

  it('beforeStep sees each step with its resolved arguments, before it acts', async () => {
    const port = new FakePort(['css:#a', 'css:#missing', 'css:#c'])
    const seen: string[] = []
    const before = (s: StepStart) =>
      void seen.push(`${s.id} ${s.action} ${JSON.stringify(s.input)} after ${port.actions().length} actions`)
    await createEngine({ registry: registryOf(kPack), port }).run('s1:three:clicks', {}, { beforeStep: before })
    expect(seen).toEqual([
      '1 click {"selector":"css:#a"} after 0 actions',
      '2 click {"selector":"css:#missing"} after 1 actions',
      '3 click {"selector":"css:#c"} after 2 actions',
    ])
  })
})

describe('a wait that times out falls back to domcontentloaded + 500 ms', () => {
  it('an element that never comes: the wait goes on after the load and 500 ms, the next step runs', async () => {
    const port = new SlowPage(['css:#a'])
    const slept: number[] = []
    const engine = createEngine({ registry: registryOf(kPack), port, sleep: async (ms) => void slept.push(ms) })
    const result = await engine.run('s1:wait:dialog')
    expect(result.success).toBe(true)
    expect(port.loads.map((l) => l.state)).toEqual(['domcontentloaded'])
    expect(slept).toContain(kWaitFallbackSettleMs)
    expect(kWaitFallbackSettleMs).toBe(500)
    expect(result.trace.map((t) => [t.action, t.status])).toEqual([
      ['wait', 'recovered'],
      ['click', 'ok'],
    ])
    expect(result.trace[0].fellBack?.code).toBe('ELEMENT_NOT_FOUND')
    expect(result.fallbacksUsed).toEqual(['1'])
    expect(result.warnings.join('\n')).toMatch(/did not hold within 40 ms/)
  })

  it("a wait's output says whether it held, so a verify can insist on it", async () => {
    const never = await createEngine({
      registry: registryOf(kPack),
      port: new SlowPage(),
      sleep: async () => undefined,
    }).run('s1:wait:insisting')
    expect(never).toMatchObject({ success: false, error: { message: expect.stringContaining('No dialog came.') } })
    expect(never.trace[0].status).toBe('recovered')
    const held = await createEngine({
      registry: registryOf(kPack),
      port: new FakePort(['css:.dialog']),
      sleep: async () => undefined,
    }).run('s1:wait:insisting')
    expect(held.success, JSON.stringify(held.error)).toBe(true)
  })

  it('a URL that never comes: the port timed out, the wait still goes on', async () => {
    const port = new SlowPage()
    const result = await createEngine({ registry: registryOf(kPack), port, sleep: async () => undefined }).run(
      's1:wait:url',
    )
    expect(result.success).toBe(true)
    expect(result.trace[0]).toMatchObject({ status: 'recovered', fellBack: { code: 'TIMEOUT' } })
    expect(port.calls.map((c) => c.method)).toEqual(['waitFor', 'waitForLoad'])
  })

  it('a document that never loads fails the step after all', async () => {
    const port = new SlowPage()
    port.loaded = false
    const result = await createEngine({ registry: registryOf(kPack), port, sleep: async () => undefined }).run(
      's1:wait:url',
    )
    expect(result).toMatchObject({ success: false, error: { code: 'TIMEOUT', step: 1 } })
  })

  it('a port without waitForLoad asks the loaded page for its URL instead', async () => {
    const port = new SlowPage()
    ;(port as { waitForLoad?: unknown }).waitForLoad = undefined
    const result = await createEngine({ registry: registryOf(kPack), port, sleep: async () => undefined }).run(
      's1:wait:url',
    )
    expect(result.success).toBe(true)
    expect(port.calls.map((c) => c.method)).toEqual(['waitFor', 'getUrl'])
  })

  it('a wait of ms never falls back, and other step failures are not waits', async () => {
    const port = new SlowPage(['css:#a', 'css:#c'])
    const result = await createEngine({ registry: registryOf(kPack), port, sleep: async () => undefined }).run(
      's1:three:clicks',
    )
    expect(result.success).toBe(false)
    expect(port.loads).toEqual([])
  })
})

describe('detectVersion (global config detect_version)', () => {
  const pack = `namespace: lib
version: 1.0.0
compatibility:
  version_global: Lib.version
  min_version: 2.0.0
actions:
  a:b:
    description: One click.
    steps:
      - action: click
        args: { selector: "css:#a" }
`
  it('false never reads the page, so no bounds are checked', async () => {
    const port = new FakePort(['css:#a'])
    port.globals.set('Lib.version', '1.0.0')
    expect((await createEngine({ registry: registryOf(pack), port }).run('lib:a:b')).error?.code).toBe(
      'VERSION_INCOMPATIBLE',
    )
    const off = new FakePort(['css:#a'])
    off.globals.set('Lib.version', '1.0.0')
    const result = await createEngine({ registry: registryOf(pack), port: off, detectVersion: false }).run('lib:a:b')
    expect(result.success).toBe(true)
    expect(off.calls.some((c) => c.method === 'readGlobal')).toBe(false)
  })
})

describe('beforeStep and cancellation', () => {
  it('a run cancelled while paused before a step does not perform that step', async () => {
    const port = new FakePort(['css:#a', 'css:#missing', 'css:#c'])
    const stop = new AbortController()
    const result = await createEngine({ registry: registryOf(kPack), port }).run(
      's1:three:clicks',
      {},
      { signal: stop.signal, beforeStep: (s) => void (s.id === '2' && stop.abort()) },
    )
    expect(port.actions()).toEqual(['click css:#a'])
    expect(result).toMatchObject({ success: false, error: { code: 'STEP_FAILED' } })
    expect(result.error?.message).toContain('cancelled')
  })
})

describe('stopOnError false and a later verify', () => {
  it('reports the first failure, not the verify it caused', async () => {
    const pack = `namespace: s2
version: 1.0.0
actions:
  read:title:
    description: Reads a title that is not there, then checks it.
    steps:
      - action: getText
        timeout: 50
        output: title
        args: { selector: "css:h1" }
      - action: getUrl
    verify:
      - condition: "\${steps.title} != null"
        message: No title
`
    const port = new FakePort()
    const result = await createEngine({ registry: registryOf(pack), port }).run(
      's2:read:title',
      {},
      { stopOnError: false },
    )
    expect(result).toMatchObject({ success: false, error: { code: 'ELEMENT_NOT_FOUND', step: 1 } })
    expect(port.actions()).toEqual(['getUrl'])
  })
})
