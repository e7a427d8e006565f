import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { instructionChunks, launchAva, readSteps, sendRequest, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer, type ScriptedReply } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
let page: Page
let panel: Frame

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startSiteServer()])
  page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  panel = await ava.openPanel(page)
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.requireKey(null)
})

const typeAlice = {
  step_id: 1,
  action_type: 'input',
  params: { fallback_selector: '#username', semantic_locator: 'username', value: 'alice' },
  description: 'Type the username',
}
const typePassword = {
  step_id: 2,
  action_type: 'input',
  params: { fallback_selector: '#password', semantic_locator: 'password', value: 'pw' },
  description: 'Type the password',
}

let errorsBefore = 0
async function send(text: string) {
  errorsBefore = await panel.locator('article.error').count()
  await sendRequest(panel, text)
}

/**
 * The error message the last request ended with, once the run is over: one plain sentence, the
 * technical details behind the toggle, and the recovery buttons offered.
 */
async function lastError(): Promise<{ text: string; details: string; recovery: string[] }> {
  const err = panel.locator('article.error').nth(errorsBefore)
  await err.waitFor({ timeout: 15_000 })
  await panel.waitForSelector('[data-test=send]:not([disabled])')
  const details = err.locator('[data-test=details]')
  return {
    text: (await err.locator('[data-test=text]').textContent()) ?? '',
    details: (await details.count()) ? ((await details.textContent()) ?? '') : '',
    recovery: await err
      .locator('[data-test=recovery] button')
      .evaluateAll((bs) => bs.map((b) => b.getAttribute('data-test') ?? '')),
  }
}

/** After any fault the panel must take the next request and complete it. */
async function expectUsable() {
  llm.script({ text: 'Still here.' })
  const before = await panel.locator('[data-role=assistant]').count()
  await send('are you there?')
  await expect
    .poll(() => panel.locator('[data-role=assistant]').nth(before).locator('[data-test=text]').textContent(), {
      timeout: 10_000,
    })
    .toBe('Still here.')
  await panel.waitForSelector('[data-test=send]:not([disabled])')
}

describe.each(['openai', 'anthropic'] as const)('faults through the %s wire format', (provider) => {
  beforeAll(async () => {
    await ava.configure({
      provider,
      baseUrl: llm.baseUrl,
      apiKey: 'sk-right',
      model: 'test-model',
      requestTimeoutMs: 1_500,
    })
  })

  it.each<[string, ScriptedReply | 'wrong-key', RegExp, RegExp, string]>([
    ['a refused key (HTTP 401)', 'wrong-key', /refused the API key/, /401[\s\S]*Invalid API key/, 'open-options'],
    ['rate limiting (HTTP 429)', { fault: 'http429' }, /limiting requests/, /429/, 'retry'],
    ['a server error (HTTP 500)', { fault: 'http500' }, /could not answer/, /500/, 'retry'],
    [
      'a malformed JSON event',
      { text: 'Some text that will be broken', fault: 'malformed-json' },
      /could not answer|could not read|not valid/i,
      /JSON|malformed|parse/i,
      'retry',
    ],
    ['a slow first byte', { text: '[]', firstByteDelayMs: 4_000 }, /too long/, /1\.5 s/, 'retry'],
  ])(
    '%s produces one clear message, details behind the toggle, a way out, and leaves the panel usable',
    async (_name, reply, message, details, button) => {
      if (reply === 'wrong-key') llm.requireKey('sk-other')
      else llm.script(reply)
      await send('log in as alice')
      const err = await lastError()
      expect(err.text).toMatch(message)
      expect(err.text).not.toMatch(/HTTP|\{|Error:/) // the technical part is in the details only
      expect(err.details).toMatch(details)
      expect(err.recovery).toContain(button)
      llm.requireKey(null)
      await expectUsable()
    },
  )

  it('a stream cut in the middle of an instruction runs the complete ones and says where it stopped', async () => {
    await page.fill('#username', '')
    await page.fill('#password', '')
    const chunks = instructionChunks([typeAlice, typePassword])
    const text = chunks.join('')
    llm.script({ chunks, chunkDelayMs: 50, fault: 'cut', cutAfter: text.indexOf('"pw"') })
    await send('log in as alice')
    const err = await lastError()
    expect(err.text).toMatch(/broke off in the middle of step 2/)
    expect(await page.inputValue('#username')).toBe('alice')
    expect(await page.inputValue('#password')).toBe('') // the cut instruction never ran
    await expectUsable()
  })
})

it('an invalid instruction is reported and not executed; Ava asks once more with the error, then gives up', async () => {
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
  await page.fill('#username', '')
  const bad = { step_id: 1, action_type: 'teleport', params: { url: 'x' } }
  // What follows the invalid instruction types a value no other test types: it must never arrive.
  const typeMallory = { ...typeAlice, params: { ...typeAlice.params, value: 'mallory' } }
  llm.script({ chunks: instructionChunks([bad, typeMallory]) }, { chunks: instructionChunks([bad]) })
  await send('do something odd')
  const err = await lastError()
  expect(err.text).toMatch(/step \d+ was not a valid instruction/i)
  expect(err.details).toMatch(/action_type/)
  const steps = await readSteps(panel)
  // The reply is cut at its first invalid instruction: what came after it is never
  // parsed, shown or run, so each reply shows one failed step and nothing else.
  expect(steps.slice(-2).map((s) => s.status)).toEqual(['failed', 'failed'])
  // The model's words are said once, behind the error's Details, not again on the step's row,
  // which is named in the UI language; the usage line does not claim 0 tokens for a cut reply.
  expect(steps.slice(-2).map((s) => s.detail)).toEqual(['', ''])
  expect(
    await panel.locator('[data-role=assistant]').last().locator('[data-test=step] .what').allTextContents(),
  ).toEqual([
    'An instruction from the model that Ava could not use',
    'An instruction from the model that Ava could not use',
  ])
  expect(err.details.match(/teleport/g)).toHaveLength(1)
  expect(await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').textContent()).toBe(
    'token use not reported',
  )
  expect(await page.inputValue('#username')).not.toContain('mallory')
  // The second request carried the first reply's error back to the model, and there was no third.
  const mine = llm.requests.filter((r) => r.api === 'openai')
  expect(mine).toHaveLength(2)
  expect(mine.slice(1).some((r) => JSON.stringify(r.body).includes('Your last reply had an invalid instruction'))).toBe(
    true,
  )
})

it('Stop aborts a run mid-stream', async () => {
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
  llm.script({ chunks: instructionChunks([typeAlice, typePassword]), chunkDelayMs: 1_500 })
  await send('slowly log in')
  await panel.click('[data-test=stop]')
  const err = await lastError()
  expect(err.text).toMatch(/Stopped/)
  await expectUsable()
})
