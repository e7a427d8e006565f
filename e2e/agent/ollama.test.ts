// The install default, end to end (docs/settings.md, "Local models"): Ava's Local profile talks to
// a loopback Ollama over its OpenAI-compatible API: a full run, Test connection, and the failures a
// person meets on a fresh install, each said with what to do, in English and in Chinese.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { launchAva, type Ava, pressSend } from '../support/ava'
import { startOllamaServer, type OllamaServer } from '../support/ollama-server'
import { startSiteServer, type SiteServer } from '../support/site-server'
import { openOptions } from '../manage/helpers'

let ava: Ava
let ollama: OllamaServer
let site: SiteServer
let page: Page

beforeAll(async () => {
  ;[ava, ollama, site] = await Promise.all([launchAva(), startOllamaServer(), startSiteServer()])
  page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
})
afterAll(async () => {
  await Promise.all([ava?.close(), ollama?.close(), site?.close()])
})

/** The install's Local profile, pointed at the loopback Ollama (model and all else as installed). */
const local = (over: object = {}) => ava.configure({ baseUrl: ollama.baseUrl, ...over })
const plan = (name: string) =>
  JSON.stringify([
    {
      step_id: 1,
      action_type: 'input',
      params: { fallback_selector: '#username', semantic_locator: 'Username', value: name },
    },
    { step_id: 2, action_type: 'done', params: { answer: `Typed ${name}.` } },
  ])

async function ask(panel: Frame, text: string): Promise<Frame> {
  await pressSend(panel, text)
  return panel
}
const lastError = async (panel: Frame, before: number) => {
  const e = panel.locator('[data-kind=error]').nth(before)
  await e.waitFor({ timeout: 20_000 })
  return (await e.textContent()) ?? ''
}
async function setLanguage(lang: 'en' | 'zh-CN') {
  await (await ava.worker()).evaluate((l) => chrome.storage.local.set({ ui: { version: 1, language: l } }), lang)
}

it('runs a task on the install default, waiting for a model that takes 20 s to load, with a note meanwhile', async () => {
  await local()
  ollama.set({ loadMs: 20_000, refuseExtensions: false })
  ollama.script(plan('local-bob'))
  await page.reload()
  const panel = await ava.openPanel(page)
  const before = await panel.locator('[data-role=assistant]').count()
  await ask(panel, 'type local-bob as the username')
  const msg = panel.locator('[data-role=assistant]').nth(before)
  await msg.locator('[data-test=notice]').waitFor({ timeout: 10_000 })
  expect(await msg.locator('[data-test=notice]').textContent()).toMatch(/Loading the model/)
  await msg.locator('[data-test=usage]').waitFor({ timeout: 40_000 })
  expect(await msg.textContent()).toContain('Typed local-bob.')
  expect(await msg.locator('[data-test=notice]').count()).toBe(0)
  expect(await page.inputValue('#username')).toBe('local-bob')
  expect(ollama.requests.some((r) => r.path === '/v1/chat/completions' && r.body.stream === true)).toBe(true)
}, 60_000)

it('asks Ollama for the plan with its format schema on /api/chat, and runs the steps as they stream', async () => {
  await local({ structuredOutput: 'on' })
  ollama.set({ loadMs: 0, refuseExtensions: false })
  ollama.requests.length = 0
  ollama.script(JSON.stringify({ steps: JSON.parse(plan('local-schema')) }))
  await page.reload()
  const panel = await ava.openPanel(page)
  const before = await panel.locator('[data-role=assistant]').count()
  await ask(panel, 'type local-schema as the username')
  const msg = panel.locator('[data-role=assistant]').nth(before)
  await msg.locator('[data-test=usage]').waitFor({ timeout: 20_000 })
  expect(await msg.textContent()).toContain('Typed local-schema.')
  expect(await page.inputValue('#username')).toBe('local-schema')
  const chat = ollama.requests.find((r) => r.path === '/api/chat')!
  expect(chat.body.stream).toBe(true)
  expect(chat.body.format.properties.steps.items.properties.action_type).toBeTruthy()
})

it('falls back to the OpenAI-compatible API once for a Local server without /api/chat, and remembers it', async () => {
  await local({ structuredOutput: 'on' })
  await (await ava.worker()).evaluate(() => chrome.storage.local.remove('structuredRefused'))
  ollama.set({ loadMs: 0, refuseExtensions: false, noNative: true })
  ollama.requests.length = 0
  ollama.script(plan('lm-studio'), plan('lm-studio-2'))
  await page.reload()
  const panel = await ava.openPanel(page)
  for (const name of ['lm-studio', 'lm-studio-2']) {
    const before = await panel.locator('[data-role=assistant]').count()
    await ask(panel, `type ${name}`)
    await panel.locator('[data-role=assistant]').nth(before).locator('[data-test=usage]').waitFor({ timeout: 20_000 })
    expect(await page.inputValue('#username')).toBe(name)
  }
  expect(ollama.requests.filter((r) => r.body).map((r) => r.path)).toEqual([
    '/api/chat',
    '/v1/chat/completions',
    '/v1/chat/completions',
  ])
  ollama.set({ noNative: false })
})

it('Test connection on the options page answers from the loopback Ollama, and says a missing model plainly', async () => {
  await local()
  ollama.set({ loadMs: 0 })
  ollama.script('OK')
  const options = await openOptions(ava)
  await options.click('[data-test=test]')
  const result = options.locator('[data-test=test-result]')
  await result.waitFor({ timeout: 15_000 })
  await expect.poll(() => result.getAttribute('class')).toContain('ok')
  await local({ model: 'llama3.2:3b' })
  await options.reload()
  await options.waitForSelector('[data-test=settings-form]')
  await options.click('[data-test=test]')
  await expect
    .poll(async () => (await options.locator('[data-test=test-result]').textContent()) ?? '', { timeout: 15_000 })
    .toContain('ollama pull llama3.2:3b')
  // The profile's structured-output choice is kept from the options page.
  await options.selectOption('[data-test=structuredOutput]', 'off')
  await options.click('[data-test=save]')
  await expect.poll(() => options.textContent('[data-test=notice]')).toBe('Saved.')
  const stored = (await ava.storage('local')).settings as { profiles: { structuredOutput?: string }[] }
  expect(stored.profiles[0].structuredOutput).toBe('off')
  await options.close()
})

it('says each failure a person meets with what to do, in English and in Chinese', async () => {
  // Over the OpenAI-compatible API (`off`) and Ollama's native /api/chat (`on`: structured output).
  const cases = (['off', 'on'] as const).flatMap((structuredOutput) => [
    {
      name: `403 for the extension origin (${structuredOutput})`,
      set: async () => (await local({ structuredOutput }), ollama.set({ refuseExtensions: true })),
      en: /OLLAMA_ORIGINS=chrome-extension:\/\/\*/,
      zh: /设置 OLLAMA_ORIGINS=chrome-extension:\/\/\* 后重新启动/,
    },
    {
      name: `model not pulled (${structuredOutput})`,
      set: async () => (
        await local({ model: 'deepseek-r1:8b', structuredOutput }),
        ollama.set({ refuseExtensions: false })
      ),
      en: /ollama pull deepseek-r1:8b/,
      zh: /请运行“ollama pull deepseek-r1:8b”/,
    },
    {
      name: `server not running (${structuredOutput})`,
      set: async () => void (await local({ baseUrl: 'http://127.0.0.1:9/v1', structuredOutput })),
      en: /not running.*ollama serve/,
      zh: /本地模型服务没有运行/,
    },
  ])
  const failed: string[] = []
  for (const lang of ['en', 'zh-CN'] as const) {
    await setLanguage(lang)
    for (const c of cases) {
      await c.set()
      await page.reload()
      const panel = await ava.openPanel(page)
      const before = await panel.locator('[data-kind=error]').count()
      await ask(panel, `try ${c.name}`)
      const text = await lastError(panel, before)
      if (!(lang === 'en' ? c.en : c.zh).test(text)) failed.push(`${lang} ${c.name}: ${text}`)
    }
  }
  await setLanguage('en')
  expect(failed).toEqual([])
}, 120_000)
