import { afterAll, beforeAll, expect, it } from 'vitest'
import { readFile } from 'node:fs/promises'
import type { Page, Worker } from 'playwright-core'
import { launchAva, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { enableDeveloperMode, openOptions, openPopup } from './helpers'

let ava: Ava
let llm: LlmServer
let options: Page
const kKey = 'sk-profile-KEY-0a1b2c3d'
const kSecret = 'vault-VALUE-77aa88bb'

const local = () => ava.storage('local')

/**
 * `chrome.runtime.reload()` from the worker; Chrome starts the new worker by itself to deliver
 * runtime.onInstalled (reason "update"), and we reconnect to that one.
 */
async function reloadExtension(): Promise<Worker> {
  const old = await ava.worker()
  const next = ava.context.waitForEvent('serviceworker', {
    predicate: (w) => w.url().startsWith(`chrome-extension://${ava.extensionId}/`),
    timeout: 15_000,
  })
  await old.evaluate(() => chrome.runtime.reload()).catch(() => undefined) // the worker dies mid-call
  const w = await next
  await expect.poll(() => w.evaluate(() => !!chrome.runtime?.id).catch(() => false)).toBe(true)
  return w
}

beforeAll(async () => {
  ;[ava, llm] = await Promise.all([launchAva(), startLlmServer()])
  // A reload closes the extension's own pages; Chromium quits when its last tab goes.
  await (await ava.context.newPage()).goto('about:blank')
  await enableDeveloperMode(ava)
  options = await openOptions(ava)
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close()])
})

it('keeps two provider profiles, one active, with keys masked and revealed only on request', async () => {
  await options.selectOption('[data-test=profile-add-provider]', 'openai')
  await options.click('[data-test=profile-add]')
  await options.fill('[data-test=profile-name]', 'Loopback')
  await options.fill('[data-test=baseUrl]', llm.baseUrl)
  await options.fill('[data-test=apiKey]', kKey)
  await options.fill('[data-test=model]', 'test-model')
  await options.check('[data-test=profile-active]')
  await options.click('[data-test=save]')
  await expect.poll(() => options.textContent('[data-test=notice]')).toBe('Saved.')

  const stored = (await local()).settings as {
    version: number
    activeProfile: string
    profiles: { id: string; name: string; apiKey: string }[]
  }
  expect(stored.version).toBe(4)
  expect(stored.profiles.map((p) => p.name)).toEqual(['Local', 'Loopback'])
  expect(stored.activeProfile).toBe('openai-1')
  expect(stored.profiles[1].apiKey).toBe(kKey)
  expect(await options.content()).not.toContain(kKey)

  await options.click('[data-test=reveal]')
  await expect.poll(() => options.inputValue('[data-test=apiKey]')).toBe(kKey)
  expect(await options.getAttribute('[data-test=apiKey]', 'type')).toBe('text')
  await options.click('[data-test=reveal]')
  expect(await options.inputValue('[data-test=apiKey]')).toBe('')

  // The model list comes from the endpoint's own /models.
  await options.click('[data-test=fetch-models]')
  await expect.poll(() => options.textContent('[data-test=models]')).toContain('offers 1 model.')
  expect(await options.$$eval('[data-test=model-list] option', (els) => els.map((e) => e.textContent))).toContain(
    'test-model',
  )
  expect(llm.requests.at(-1)).toMatchObject({ api: 'models' })
  expect(llm.requests.at(-1)!.headers.authorization).toBe(`Bearer ${kKey}`)
})

it('keeps variables and secrets masked, and out of exports unless the box is ticked', async () => {
  await options.fill('[data-test=vault-name]', 'SHOP_PASSWORD')
  await options.fill('[data-test=vault-value]', kSecret)
  await options.click('[data-test=vault-add]')
  await options.waitForSelector('[data-test=vault-entry]')
  expect(await options.content()).not.toContain(kSecret)
  expect((await local()).vault).toEqual({ SHOP_PASSWORD: kSecret })

  const exportText = async () => {
    const [download] = await Promise.all([options.waitForEvent('download'), options.click('[data-test=export]')])
    return readFile((await download.path())!, 'utf8')
  }
  const plain = await exportText()
  expect(plain).not.toContain(kSecret)
  expect(plain).not.toContain(kKey)
  expect(JSON.parse(plain).settings.profiles[1].baseUrl).toBe(llm.baseUrl)

  await options.check('[data-test=export-secrets]')
  const full = JSON.parse(await exportText())
  expect(full.vault).toEqual({ SHOP_PASSWORD: kSecret })
  expect(full.settings.profiles[1].apiKey).toBe(kKey)
  await options.uncheck('[data-test=export-secrets]')
})

it('switches every open UI to Chinese live, and back', async () => {
  const popup = await openPopup(ava)
  expect(await popup.textContent('[data-test=tab-packs]')).toContain('Packs')
  await options.selectOption('[data-test=language]', 'zh-CN')
  await options.click('[data-test=save]')
  await expect.poll(() => options.textContent('h1')).toBe('Ava 设置')
  await expect.poll(() => popup.textContent('[data-test=tab-packs]')).toContain('操作包')
  expect(await popup.evaluate(() => document.documentElement.lang)).toBe('zh-CN')
  expect((await local()).ui).toEqual({ version: 1, language: 'zh-CN' })

  await options.selectOption('[data-test=language]', 'auto')
  await options.click('[data-test=save]')
  await expect.poll(() => popup.textContent('[data-test=tab-packs]')).toContain('Packs')
  await popup.close()
})

it('survives a reload of the extension with every setting intact', async () => {
  const before = await local()
  await reloadExtension()
  const after = await local()
  for (const key of ['settings', 'ui', 'vault']) expect(after[key], key).toEqual(before[key])
  options = await openOptions(ava)
  expect(await options.inputValue('[data-test=profile-name]')).toBe('Loopback')
  expect(await options.getAttribute('[data-test=apiKey]', 'placeholder')).toContain(kKey.slice(-4))
})

it('migrates version 1 settings on update, and shows a value it could not read', async () => {
  const v1 = {
    version: 1,
    llm: {
      provider: 'anthropic',
      baseUrl: llm.baseUrl,
      authStyle: 'bearer',
      apiKey: 'sk-old-v1-key',
      model: 'claude-old',
      requestTimeoutMs: 45_000,
    },
    agent: { stepLimit: 12, useCache: false },
    safety: { confirm: ['payment'], allowDomains: [], denyDomains: ['bank.example'] },
    ui: { language: 'zh-CN' },
  }
  const w = await ava.worker()
  // What an older Ava left behind: version 1 settings, no ui key, no version record.
  await w.evaluate(async (v) => {
    await chrome.storage.local.remove(['ui', 'storage.versions'])
    await chrome.storage.local.set({ settings: v })
  }, v1)
  await options.close()
  // Reloading an unpacked extension fires runtime.onInstalled with reason "update".
  await reloadExtension()
  await expect
    .poll(async () => (await local())['storage.versions'], { timeout: 10_000 })
    .toMatchObject({ settings: 4, ui: 1 })
  const s = (await local()).settings as Record<string, unknown>
  expect(s).toMatchObject({
    version: 4,
    activeProfile: 'default',
    profiles: [{ id: 'default', name: 'Anthropic', ...v1.llm }],
    agent: { stepLimit: 12, useCache: false },
    // Categories added in version 3 are asked about; the person's own choice is kept.
    safety: { ...v1.safety, confirm: ['payment', 'permission', 'data_send'], skipOwnCommands: false },
  })
  expect((await local()).ui).toEqual({ version: 1, language: 'zh-CN' })

  // A value no migration can read is set aside and the options page says so.
  await (
    await ava.worker()
  ).evaluate(() => chrome.storage.local.set({ settings: { version: 1, llm: { provider: 'skynet' } } }))
  options = await openOptions(ava)
  await options.waitForSelector('[data-test=invalid]')
  expect(await options.textContent('[data-test=invalid]')).toContain('settings')
  expect(await options.textContent('[data-test=invalid]')).toMatch(/llm\.provider/)
  expect(((await local())['settings.invalid'] as { value: unknown }).value).toEqual({
    version: 1,
    llm: { provider: 'skynet' },
  })
  await options.click('[data-test=invalid-discard]')
  await expect.poll(() => options.locator('[data-test=invalid]').count()).toBe(0)
})

it('resets to defaults only after confirmation', async () => {
  await options.fill('[data-test=stepLimit]', '7')
  await options.click('[data-test=save]')
  await expect
    .poll(async () => ((await local()).settings as { agent: { stepLimit: number } } | undefined)?.agent.stepLimit)
    .toBe(7)
  await options.click('[data-test=reset]')
  expect(((await local()).settings as { agent: { stepLimit: number } }).agent.stepLimit).toBe(7)
  await options.click('[data-test=reset-confirm]')
  await expect
    .poll(async () =>
      ((await local()).settings as { profiles: { provider: string }[] }).profiles.map((p) => p.provider),
    )
    .toEqual(['local'])
  expect(await options.inputValue('[data-test=baseUrl]')).toBe('http://localhost:11434/v1')
})
