import { describe, it, expect } from 'vitest'
import { createActionApi, createEngine, createRegistry, type ActionCommand } from '../../../src/core/registry'
import { FakePort } from './fake-port'

const pack = `namespace: demo
version: 1.0.0
actions:
  button:press:
    description: Press the main button.
    params:
      label:
        type: string
        description: Button label
        required: true
    steps:
      - action: click
        args:
          selector: "text:\${params.label}"
`

function api(withPage = true) {
  let text = pack
  const registry = createRegistry(() => [{ source: 'user', files: [{ path: 'demo.yaml', text }] }])
  registry.load([{ source: 'user', files: [{ path: 'demo.yaml', text }] }])
  const port = new FakePort(['text:Save'])
  const engine = createEngine({ registry, port })
  return {
    api: createActionApi({ registry, getEngine: () => (withPage ? engine : undefined) }),
    port,
    setText: (t: string) => (text = t),
  }
}

describe('ActionApi', () => {
  it('dispatches every command type through handle()', async () => {
    const { api: a, port } = api()
    const commands: ActionCommand[] = [
      { type: 'action.list' },
      { type: 'action.describe', action: 'demo:button:press', format: 'text' },
      { type: 'action.search', query: 'button' },
      { type: 'action.dryRun', action: 'demo:button:press', params: { label: 'Save' } },
      { type: 'action.run', action: 'demo:button:press', params: { label: 'Save' } },
      { type: 'action.debug', action: 'demo:button:press', params: { label: 'Save' } },
      { type: 'action.validate', path: 'x.yaml', text: 'namespace: x\n' },
    ]
    const [list, describe, search, plan, run, debug, validate] = await Promise.all(commands.map((c) => a.handle(c)))
    expect(list).toMatchObject([{ namespace: 'demo' }])
    expect(describe).toMatchObject({ ok: true, text: expect.stringContaining('\n    label  string, required') })
    expect(search).toMatchObject([{ name: 'demo:button:press' }])
    expect(plan).toMatchObject({ success: true })
    expect(run).toMatchObject({ success: true })
    expect(debug).toMatchObject({ success: true, log: expect.any(Array) })
    expect(validate).toMatchObject({ ok: false, issues: [{ code: 'MISSING_FIELD' }, { code: 'MISSING_FIELD' }] })
    expect(port.actions()).toEqual(['click text:Save', 'click text:Save'])
  })

  it('describe of an unknown action is a typed error', async () => {
    expect(await api().api.describe({ action: 'demo:nope' })).toMatchObject({
      ok: false,
      error: { code: 'ACTION_NOT_FOUND' },
    })
  })

  it('run without a page fails with a hint instead of throwing', async () => {
    const result = await api(false).api.run({ action: 'demo:button:press', params: { label: 'Save' } })
    expect(result).toMatchObject({
      success: false,
      error: { code: 'STEP_FAILED', message: 'No page is attached to run actions in.' },
    })
  })

  it('reload re-reads the sources', async () => {
    const { api: a, setText } = api()
    setText(pack.replace('button:press', 'button:push'))
    expect(await a.reload({})).toMatchObject({ success: true, actions: 1, issues: [] })
    expect((await a.search({ query: 'push' }))[0].name).toBe('demo:button:push')
  })
})
