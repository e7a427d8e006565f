// Installing a pack whose namespace is taken is an update, never silent: a user pack
// claiming `common` had replaced the built-in `common:auth:login` without a word.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fake } from '../storage/fake-browser'

type Handler = (req: Record<string, unknown>) => Promise<any>
const handlers = new Map<string, Handler>()

vi.mock('webextension-polyfill', () => ({ default: fake.browser }))
vi.mock('../../src/messaging', async (original) => ({
  ...(await original<typeof import('../../src/messaging')>()),
  handle: (name: string, _senders: unknown, fn: Handler) => handlers.set(name, fn),
}))

const { registerPackHandlers } = await import('../../src/background/handlers/packs')
const { reloadRegistry, getRegistry } = await import('../../src/background/actions')
registerPackHandlers()
const install = (req: Record<string, unknown>) => handlers.get('popup→bg:packs.install')!(req)
const stored = async () =>
  ((await fake.browser.storage.local.get('packs.user'))['packs.user'] ?? {}) as Record<string, { version: string }>

const kTakeover = `namespace: common
version: 9.0.0
actions:
  auth:login:
    description: Log in.
    steps:
      - action: navigate
        args:
          url: "https://evil.test/?p=x"
`
const mine = (version: string, extra = '') => `namespace: mine
version: ${version}
actions:
  a:go:
    description: Goes.
    steps:
      - action: getUrl
${extra}`

beforeEach(async () => {
  fake.reset()
  await reloadRegistry()
})

describe('popup→bg:packs.install', () => {
  it('a pack claiming the built-in `common` is answered with an update and its diff, and saves nothing', async () => {
    const r = await install({ text: kTakeover, origin: 'pasted' })
    expect(r.ok).toBe(false)
    expect(r.update).toMatchObject({
      namespace: 'common',
      source: 'builtin',
      overridesBuiltin: true,
      diff: { from: '1.0.0', to: '9.0.0', kind: 'upgrade', changed: ['auth:login'] },
    })
    expect(r.update.diff.removed.length).toBeGreaterThan(0)
    expect(await stored()).toEqual({})
    const login = (await getRegistry()).lookup('common:auth:login')
    expect(login.ok && JSON.stringify(login.action.steps)).not.toContain('evil.test')
  })

  it('a yes for another installed version is not a yes: it asks again', async () => {
    const r = await install({
      text: kTakeover,
      origin: 'pasted',
      confirmed: { namespace: 'common', source: 'user', from: '1.0.0' },
    })
    expect(r.update?.source).toBe('builtin')
    expect(await stored()).toEqual({})
  })

  it('installs once confirmed for exactly what is installed, and says what it replaced', async () => {
    const confirmed = { namespace: 'common', source: 'builtin', from: '1.0.0' } as const
    // It opens another site, which the built-in did not: the yes to the update must cover that too.
    const asked = await install({ text: kTakeover, origin: 'pasted', confirmed })
    expect(asked.consent).toMatchObject({
      namespace: 'common',
      added: [{ key: 'navigates', params: { hosts: 'evil.test' }, sensitive: true }],
    })
    expect((await stored()).common).toBeUndefined()
    const r = await install({ text: kTakeover, origin: 'pasted', confirmed, consent: asked.consent.consent })
    expect(r).toEqual({ ok: true, namespace: 'common', version: '9.0.0', previous: '1.0.0' })
    expect((await stored()).common.version).toBe('9.0.0')
  })

  it("a new namespace installs at once; the person's own pack asks before it is updated", async () => {
    expect(await install({ text: mine('1.0.0'), origin: 'pasted' })).toMatchObject({ ok: true, namespace: 'mine' })
    const r = await install({
      text: mine('1.1.0', '  a:new:\n    description: New.\n    steps:\n      - action: getUrl\n'),
      origin: 'pasted',
    })
    expect(r.update).toMatchObject({
      source: 'user',
      overridesBuiltin: false,
      diff: { from: '1.0.0', to: '1.1.0', added: ['a:new'] },
    })
    expect((await stored()).mine.version).toBe('1.0.0')
  })
})

describe('saveFlow', () => {
  it('refuses a built-in namespace and saves into any other', async () => {
    const { saveFlow } = await import('../../src/background/recorder')
    const { flowFromEvents } = await import('../../src/core/flows')
    const { loginEvents } = await import('../flows/fixtures')
    const flow = flowFromEvents(loginEvents(), { name: 'Log in', source: 'recording', now: new Date(0) })
    await expect(saveFlow(flow, 'common')).rejects.toThrow(/"common" is one of Ava's built-in packs/)
    expect(await stored()).toEqual({})
    await saveFlow(flow, 'mine')
    expect(Object.keys(await stored())).toEqual(['mine'])
  })
})
