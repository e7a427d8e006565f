import { afterAll, beforeAll, expect, it } from 'vitest'
import { createServer } from 'node:net'
import { mkdirSync } from 'node:fs'
import type { Frame, Page } from 'playwright-core'
import { launchAva, sendAndWait, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

/**
 * First run, as a new user meets it: installing opens the welcome page; until a model
 * has answered, the panel says what is missing and links there instead of sending the request; an
 * unreachable model names the URL tried; a loopback provider set up on the welcome page passes
 * Test connection, and the panel then works.
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
let page: Page
const kKey = 'sk-first-run-4242'

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva({ keepWelcome: true }), startLlmServer(), startSiteServer()])
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})

const welcomeUrl = () => `chrome-extension://${ava.extensionId}/src/welcome/index.html`

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as { port: number }
  await new Promise((r) => server.close(r))
  return port
}

/** Types a request and presses Send; returns the panel. */
async function trySend(text: string): Promise<Frame> {
  const panel = await ava.openPanel(page)
  await panel.fill('[data-test=input]', text)
  await panel.click('[data-test=send]')
  return panel
}

it('opens the welcome page on install', async () => {
  await expect
    .poll(() => ava.context.pages().filter((p) => p.url() === welcomeUrl()).length, { timeout: 10_000 })
    .toBe(1)
  const welcome = ava.context.pages().find((p) => p.url() === welcomeUrl())!
  await welcome.waitForSelector('h1')
  expect(await welcome.textContent('h1')).toBe('Welcome to Ava')
  // The provider choice starts on what Ava installs with: a local server.
  expect(await welcome.locator('[data-test=welcome-provider]:checked').inputValue()).toBe('local')
  // Whoever also uses Ava from a terminal is told where the set-up is checked and the first errors explained.
  expect(await welcome.textContent('[data-test=welcome-doctor]')).toMatch(
    /`npx ava doctor` checks each part .* docs\/troubleshooting\.md/,
  )
})

it('before any set-up, the panel says a model is missing, links to set-up and sends nothing', async () => {
  page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  const panel = await trySend('log in as alice')
  const note = panel.locator('[data-test=setup]')
  await expect.poll(() => note.getAttribute('class')).toContain('held')
  expect(await note.textContent()).toMatch(/not connected to a model yet/)
  // And where the troubleshooting page covers it, in the panel's language.
  expect(await panel.textContent('[data-test=setup-docs]')).toBe(
    'Troubleshooting: docs/troubleshooting.md#no-model; `ava doctor` checks each part of the set-up.',
  )
  // The request stays where the person typed it, and no model and no chat bubble saw it.
  expect(await panel.inputValue('[data-test=input]')).toBe('log in as alice')
  expect(await panel.locator('[data-test=message]').count()).toBe(0)
  expect(llm.requests).toEqual([])
  // For a person to look at: the panel's screenshots are looked at.
  mkdirSync('/tmp/look-shots', { recursive: true })
  await (await panel.frameElement()).screenshot({ path: '/tmp/look-shots/panel-first-run.png' })

  const opened = ava.context.waitForEvent('page')
  await panel.click('[data-test=setup-open]')
  const welcome = await opened
  await welcome.waitForLoadState()
  expect(welcome.url()).toBe(welcomeUrl())
  await welcome.close()
})

it("names the missing key of OpenAI's own endpoint", async () => {
  await ava.configure({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: '', model: 'gpt-4.1-mini' })
  const panel = await trySend('log in as alice')
  await expect.poll(() => panel.textContent('[data-test=setup]')).toMatch(/needs an API key for OpenAI-compatible/)
  expect(llm.requests).toEqual([])
})

it('an unreachable model names the URL it tried, and the panel still offers set-up', async () => {
  const dead = `http://127.0.0.1:${await deadPort()}/v1`
  await ava.configure({ provider: 'openai', baseUrl: dead, apiKey: 'k', model: 'test-model' })
  const panel = await trySend('log in as alice')
  const error = panel.locator('[data-role=system]').last()
  await expect.poll(() => error.textContent(), { timeout: 20_000 }).toContain(dead)
  await expect.poll(() => panel.textContent('[data-test=setup]')).toContain(dead)
  expect(await panel.textContent('[data-test=setup-docs]')).toContain(
    'docs/troubleshooting.md#the-model-cannot-be-reached',
  )
})

it('a loopback provider set up on the welcome page passes Test connection, and the panel then answers', async () => {
  await (await ava.worker()).evaluate(() => chrome.storage.local.remove('settings'))
  const welcome = await ava.context.newPage()
  await welcome.goto(welcomeUrl())
  await welcome.click('[data-provider=openai]')
  // Choosing the provider offers its own endpoint, to be replaced here by the loopback server.
  await expect.poll(() => welcome.inputValue('[data-test=baseUrl]')).toBe('https://api.openai.com/v1')
  await welcome.fill('[data-test=baseUrl]', llm.baseUrl)
  await welcome.fill('[data-test=apiKey]', kKey)
  await welcome.fill('[data-test=model]', 'test-model')
  llm.requireKey(kKey)
  llm.script({ text: 'OK' })
  await welcome.click('[data-test=test]')
  await expect
    .poll(() => welcome.textContent('[data-test=test-result]'), { timeout: 15_000 })
    .toMatch(/^Connected to test-model at .* in \d+ ms\. Plans come back as structured output\.$/)
  await welcome.locator('[data-test=welcome-ready]').waitFor()
  await welcome.screenshot({ path: '/tmp/look-shots/welcome-ready.png', fullPage: true })
  // Test connection saved what was typed: the panel's requests go there now.
  const stored = (await ava.storage('local')).settings as {
    profiles: { name: string; provider: string; baseUrl: string; apiKey: string }[]
  }
  // The profile the install called "Local" is named after the provider chosen.
  expect(stored.profiles[0]).toMatchObject({ name: 'OpenAI', provider: 'openai', baseUrl: llm.baseUrl, apiKey: kKey })

  const panel = await ava.openPanel(page)
  llm.script({ text: 'Logged in.' })
  await sendAndWait(panel, 'say hello')
  expect(await panel.locator('[data-role=assistant]').last().textContent()).toContain('Logged in.')
  expect(await panel.locator('[data-test=setup]').count()).toBe(0)
  llm.requireKey(null)
})
