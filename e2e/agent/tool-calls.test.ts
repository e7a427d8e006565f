// Native tool calls, the third way a plan comes back (docs/settings.md, "How the plan comes back"):
// `Test connection` finds that a server refuses a JSON schema but takes tools, says so, and the
// next run asks for the plan as tool calls, one per step, each run as its call completes — over
// OpenAI's `tool_calls` deltas, Anthropic's `tool_use` blocks with `input_json_delta`, and Ollama's
// native `message.tool_calls`.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { launchAva, type Ava, pressSend } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startOllamaServer, type OllamaServer } from '../support/ollama-server'
import { startSiteServer, type SiteServer } from '../support/site-server'
import { openOptions } from '../manage/helpers'

let ava: Ava
let llm: LlmServer
let ollama: OllamaServer
let site: SiteServer
let page: Page

beforeAll(async () => {
  ;[ava, llm, ollama, site] = await Promise.all([launchAva(), startLlmServer(), startOllamaServer(), startSiteServer()])
  page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), ollama?.close(), site?.close()])
})

/** Type a name into the username field, then answer, as tool calls. */
const calls = (name: string) => [
  { name: 'input', arguments: { fallback_selector: '#username', value: name, description: 'Type the name' } },
  { name: 'done', arguments: { answer: `Typed ${name}.` } },
]

/** Test connection on the options page; the line it shows about how plans come back. */
async function testConnection(): Promise<string> {
  const options = await openOptions(ava)
  await options.click('[data-test=test]')
  const line = options.locator('[data-test=plan-path]')
  await line.waitFor({ timeout: 20_000 })
  const text = (await line.textContent()) ?? ''
  await options.close()
  return text
}

async function ask(panel: Frame, text: string): Promise<string> {
  const before = await panel.locator('[data-role=assistant]').count()
  await pressSend(panel, text)
  const msg = panel.locator('[data-role=assistant]').nth(before)
  await msg.locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  return (await msg.textContent()) ?? ''
}

for (const provider of ['openai', 'anthropic'] as const) {
  it(`finds a ${provider} server that takes tools but no schema, then runs the plan as tool calls, each step as its call completes`, async () => {
    await ava.configure({ provider, baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
    llm.requests.length = 0
    // Test connection's own call, the schema probe (refused), the tools probe (taken).
    llm.script({ text: 'OK' }, { fault: 'http400-schema' }, { text: '' })
    expect(await testConnection()).toMatch(/tool calls, one per step/)
    const probes = llm.requests.filter((r) => r.api === provider).slice(1)
    expect(probes.map((r) => !!r.body.tools?.length)).toEqual([provider === 'anthropic', true]) // Anthropic's schema is a forced tool
    await page.reload()
    const panel = await ava.openPanel(page)
    llm.requests.length = 0
    const name = `${provider}-tools`
    llm.script({ toolCalls: calls(name), chunkDelayMs: 5 })
    expect(await ask(panel, `type ${name}`)).toContain(`Typed ${name}.`)
    expect(await page.inputValue('#username')).toBe(name)
    const body = llm.requests.find((r) => r.api === provider)!.body
    expect(body.response_format).toBeUndefined()
    const names = body.tools.map((t: { name?: string; function?: { name: string } }) => t.name ?? t.function!.name)
    expect(names).toEqual(expect.arrayContaining(['navigate', 'click', 'input', 'done', 'ask']))
  })
}

it('finds an Ollama that refuses a format schema but takes tools, and runs its native tool_calls', async () => {
  await ava.configure({ provider: 'local', baseUrl: ollama.baseUrl, model: 'qwen2.5:7b', apiKey: '' })
  ollama.set({ refuseFormat: true })
  ollama.script('OK', '')
  expect(await testConnection()).toMatch(/tool calls, one per step/)
  await page.reload()
  const panel = await ava.openPanel(page)
  ollama.requests.length = 0
  ollama.script({ toolCalls: calls('ollama-tools') })
  expect(await ask(panel, 'type ollama-tools')).toContain('Typed ollama-tools.')
  expect(await page.inputValue('#username')).toBe('ollama-tools')
  const chat = ollama.requests.find((r) => r.path === '/api/chat')!.body
  expect(chat.format).toBeUndefined()
  expect(chat.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(
    expect.arrayContaining(['input', 'done']),
  )
})
