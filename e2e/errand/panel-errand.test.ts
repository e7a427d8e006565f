/**
 * Schedules and site notes written from the panel (docs/agent.md, "Schedules" and "Site notes"):
 * the request just typed is scheduled to run again at this page, a note is kept for this site, a
 * bad time is refused in the person's words with nothing kept, and after a run that ended done the
 * panel offers to remember something for the site with an empty box (the page's words are never
 * put in it). Panel buttons act a moment after the click (the click guard), so every check polls.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { instructionChunks, launchAva, sendAndWait, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'
import type { Schedule } from '../../src/core/schedule/model'

let ava: Ava
let llm: LlmServer
let site: SiteServer

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startSiteServer()])
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
})

async function schedules(): Promise<Schedule[]> {
  return Object.values(((await ava.storage('local')).schedules ?? {}) as Record<string, Schedule>)
}
async function notes(): Promise<Record<string, string[]>> {
  return ((await ava.storage('local')).siteNotes ?? {}) as Record<string, string[]>
}

it('schedules the request just typed, at this page, daily at a time; a bad time is refused and nothing kept', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  const panel = await ava.openPanel(page)
  await panel.fill('[data-test=input]', 'check my parcel')
  await panel.click('[data-test=schedule-open]')
  await panel.locator('[data-test=schedule-form]').waitFor()
  expect(await panel.inputValue('[data-test=schedule-text]')).toBe('check my parcel')

  // A time that cannot be read: the failure's own sentence, and no schedule.
  await panel.fill('[data-test=schedule-when]', '25:99')
  await panel.click('[data-test=schedule-add]')
  await expect
    .poll(() => panel.locator('[data-test=errand-error]').textContent(), { timeout: 15_000 })
    .toMatch(/^Ava cannot keep that time/)
  expect(await schedules()).toEqual([])

  await panel.selectOption('[data-test=schedule-every]', 'weekdays')
  await panel.fill('[data-test=schedule-when]', '07:30')
  await panel.press('[data-test=schedule-when]', 'Enter') // a form sends on Enter as on its button
  await panel.locator('[data-test=errand-said]').waitFor({ timeout: 15_000 })
  await expect.poll(async () => (await schedules()).length, { timeout: 15_000 }).toBe(1)
  const [s] = await schedules()
  expect(s!.target).toEqual({ kind: 'request', text: 'check my parcel', url: `${site.url}/` })
  expect(s!.repeat).toEqual({ every: 'weekdays', time: '07:30' })
  expect(s!.dueAt).toBeGreaterThan(Date.now())
  // The request was scheduled, not sent: the model was not asked.
  expect(llm.requests).toEqual([])
  await page.close()
})

it("keeps a note for this site from the panel, and after a run that ended done offers an empty box for the person's words", async () => {
  const origin = new URL(site.url).origin
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  const panel = await ava.openPanel(page)
  await panel.click('[data-test=note-open]')
  await panel.locator('[data-test=note-form]').waitFor()
  await panel.fill('[data-test=note-text]', 'use the business account')
  await panel.click('[data-test=note-add]')
  await expect.poll(async () => (await notes())[origin], { timeout: 15_000 }).toEqual(['use the business account'])

  // A run that ends done: the offer, and the box it opens is empty.
  llm.script({
    chunks: instructionChunks([{ step_id: 1, action_type: 'done', params: { answer: 'Paper ordered from Acme.' } }]),
  })
  await sendAndWait(panel, 'order more paper')
  await panel.locator('[data-test=remember-offer]').waitFor({ timeout: 15_000 })
  await panel.click('[data-test=remember-yes]')
  await panel.locator('[data-test=note-form]').waitFor({ timeout: 15_000 })
  expect(await panel.inputValue('[data-test=note-text]')).toBe('')
  await panel.fill('[data-test=note-text]', 'order from Acme')
  await panel.press('[data-test=note-text]', 'Enter')
  await expect
    .poll(async () => (await notes())[origin], { timeout: 15_000 })
    .toEqual(['use the business account', 'order from Acme'])
  await expect.poll(() => panel.locator('[data-test=remember-offer]').count()).toBe(0)
  await page.close()
})

it('schedules a flow saved in this browser from the panel, by its id, and asks no model', async () => {
  // A flow the person saved: one step, going to the site's start page.
  const flow = {
    version: '1.0',
    metadata: {
      name: 'check parcel',
      created_at: '2026-11-01T08:00:00Z',
      source: 'recording',
      start_url: `${site.url}/`,
    },
    variables: {},
    steps: [{ step_id: 1, action: 'navigate', params: { url: `${site.url}/` } }],
  }
  const id = 'recorded:flow:check-parcel'
  await (
    await ava.worker()
  ).evaluate(
    async ([id, flow]) =>
      chrome.storage.local.set({
        'flows.saved': {
          [id as string]: { id, namespace: 'recorded', action: id, flow, savedAt: Date.now(), pending: [] },
        },
      }),
    [id, flow] as const,
  )
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  const panel = await ava.openPanel(page)
  await panel.click('[data-test=schedule-open]')
  await panel.locator('[data-test=schedule-what]').waitFor({ timeout: 15_000 })
  await panel.selectOption('[data-test=schedule-what]', 'flow')
  await panel.selectOption('[data-test=schedule-flow]', id)
  await panel.selectOption('[data-test=schedule-every]', 'daily')
  await panel.fill('[data-test=schedule-when]', '06:45')
  await panel.click('[data-test=schedule-add]')
  await expect
    .poll(async () => (await schedules()).find((x) => x.target.kind === 'flow')?.target, { timeout: 15_000 })
    .toEqual({ kind: 'flow', flow: id, params: {} })
  const s = (await schedules()).find((x) => x.target.kind === 'flow')!
  expect(s.repeat).toEqual({ every: 'daily', time: '06:45' })
  expect(llm.requests).toEqual([])
  await page.close()
})
