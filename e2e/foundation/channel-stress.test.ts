import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { instructionChunks, launchAva, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'
import { loginPlan } from '../support/plans'

/**
 * The confirmed login under load: the model streams one step every 100, 300, 700 or
 * 1200 ms, the person allows the password submit at once or after a 1.5 s pause, five times each,
 * while a second browser does the same. Every run must end with its check step done, and no
 * runtime error text may reach the chat. The closed-channel failure this guards against showed
 * only on a busy machine, so the load is the test: two browsers, several tabs each, at once.
 */
const kPaces = [100, 300, 700, 1200]
const kPauses = [0, 1500]
const kRepeats = 5
const kTabsPerBrowser = 3
const kRaw = /message channel|listener indicated|Extension context|Receiving end/i

interface Case {
  pace: number
  pause: number
  n: number
}
interface Outcome extends Case {
  browser: number
  steps: string[]
  texts: string[]
}

/** One tab's world: its own site (its own origin, so its chat is its own) and its own model. */
interface Slot {
  site: SiteServer
  llm: LlmServer
  page?: Page
}

const browsers: { ava: Ava; slots: Slot[]; router: Server }[] = []

/**
 * One model address per browser (settings are one per browser, and a run resumed after a worker
 * restart takes them as they are then): each request goes on to the model of the tab whose site
 * its prompt shows, so runs in several tabs at once each get their own script and pace.
 */
async function startRouter(slots: Slot[]): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const slot = slots.find((s) => body.includes(s.site.url)) ?? slots[0]
      const to = new URL(req.url ?? '/', slot.llm.url)
      const out = request(to, { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
      })
      out.on('error', () => res.destroy())
      out.end(body)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return server
}

beforeAll(async () => {
  for (let b = 0; b < 2; b++) {
    const [ava, ...slots] = await Promise.all([
      launchAva(),
      ...Array.from({ length: kTabsPerBrowser }, async (): Promise<Slot> => {
        const [site, llm] = await Promise.all([startSiteServer(), startLlmServer()])
        return { site, llm }
      }),
    ])
    const router = await startRouter(slots as Slot[])
    await (ava as Ava).configure(
      {
        provider: 'openai',
        baseUrl: `http://127.0.0.1:${(router.address() as AddressInfo).port}/v1`,
        apiKey: 'k',
        model: 'test-model',
      },
      { agent: { stepLimit: 20, useCache: false } },
    )
    browsers.push({ ava: ava as Ava, slots: slots as Slot[], router })
  }
}, 90_000)

afterAll(async () => {
  await Promise.all(
    browsers.flatMap(({ ava, slots, router }) => [
      ava.close(),
      new Promise((r) => router.close(r)),
      ...slots.flatMap((s) => [s.site.close(), s.llm.close()]),
    ]),
  )
})

/** The last assistant message of the slot's site, and every message text after its request. */
async function chatOf(ava: Ava, origin: string): Promise<{ steps: string[]; usage: boolean; texts: string[] }> {
  const all = await ava.storage('local')
  const messages = ((all[`history:${origin}`] as { messages?: any[] } | undefined)?.messages ?? []) as {
    role: string
    text: string
    steps?: { status: string; detail?: string }[]
    usage?: unknown
    confirm?: { state: string }
  }[]
  const lastUser = messages.findLastIndex((m) => m.role === 'user')
  const mine = messages.slice(lastUser + 1)
  const answer = mine.find((m) => m.role === 'assistant')
  return {
    steps: (answer?.steps ?? []).map((s) => s?.status ?? ''),
    usage: answer?.usage !== undefined,
    texts: mine.flatMap((m) => [
      m.text + (m.confirm ? ` [${m.confirm.state}]` : ''),
      ...(m.steps ?? []).map((s) => s?.detail ?? ''),
    ]),
  }
}

/** Answers each question in the slot's panel with Allow, after `pause` ms, until `done` is set. */
async function allowWhileRunning(
  ava: Ava,
  page: Page,
  pause: number,
  done: { v: boolean },
  panelErrors: string[],
): Promise<void> {
  while (!done.v) {
    try {
      const f = await ava.panel(page, { timeout: 3_000 })
      const err = f.locator('[data-test=error]')
      if (await err.count()) panelErrors.push((await err.first().textContent()) ?? '')
      const btn = f.locator('[data-test=confirm-allow]')
      if (await btn.count()) {
        if (pause) await new Promise((r) => setTimeout(r, pause))
        await btn.first().click({ timeout: 3_000 })
      }
    } catch {
      // the page is between documents; look again
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * A page in a window of its own: a background tab gets no animation frames, so a person could not
 * click in it and neither can Playwright (its click waits for the element to be stable).
 */
async function newWindow(ava: Ava): Promise<Page> {
  const cdp = await ava.context.browser()!.newBrowserCDPSession()
  const opened = ava.context.waitForEvent('page')
  await cdp.send('Target.createTarget', { url: 'about:blank', newWindow: true })
  await cdp.detach()
  const page = await opened
  await page.waitForLoadState()
  return page
}

async function runOne(
  ava: Ava,
  slot: Slot,
  c: Case,
  gate: { windows: Promise<unknown> },
): Promise<Omit<Outcome, 'browser'>> {
  const { site, llm } = slot
  if (!slot.page) {
    const opening = gate.windows.then(() => newWindow(ava))
    gate.windows = opening.catch(() => undefined)
    slot.page = await opening
  }
  const page = slot.page
  await page.goto(`${site.url}/`)
  llm.script({ chunks: instructionChunks(loginPlan(site.url)), chunkDelayMs: c.pace })
  const done = { v: false }
  const panelErrors: string[] = []
  let allowing: Promise<void> = Promise.resolve()
  try {
    await ava.ask(page, 'log in as alice')
    allowing = allowWhileRunning(ava, page, c.pause, done, panelErrors)
    await expect.poll(async () => (await chatOf(ava, site.url)).usage, { timeout: 45_000, interval: 250 }).toBe(true)
  } catch {
    // A run that never ended is reported with what it showed; its tab goes, so the next run starts clean.
    panelErrors.push('(did not end)')
    slot.page = undefined
  } finally {
    done.v = true
    await allowing
  }
  const chat = await chatOf(ava, site.url)
  if (!slot.page) await page.close()
  return { ...c, steps: chat.steps, texts: [...chat.texts, ...panelErrors] }
}

it('completes 40 confirmed logins at four model paces in two busy browsers, with no runtime error text', async () => {
  const cases: Case[] = kPaces.flatMap((pace) =>
    kPauses.flatMap((pause) => Array.from({ length: kRepeats }, (_, n) => ({ pace, pause, n }))),
  )
  // Longest first, shared out in turn: the two browsers load the machine at the same time.
  cases.sort((a, b) => b.pace + b.pause - (a.pace + a.pause))
  const outcomes = await Promise.all(
    browsers.map(async ({ ava, slots }, b) => {
      const mine = cases.filter((_, i) => i % browsers.length === b)
      const gate = { windows: Promise.resolve() as Promise<unknown> }
      const results: Outcome[] = []
      await Promise.all(
        slots.map(async (slot) => {
          for (let c = mine.shift(); c; c = mine.shift())
            results.push({ ...(await runOne(ava, slot, c, gate)), browser: b })
        }),
      )
      return results
    }),
  )
  const all = outcomes.flat()
  const failed = all.filter(
    (o) => o.steps.length !== 5 || o.steps.some((s) => s !== 'ok') || o.texts.some((t) => kRaw.test(t)),
  )
  // The failures, named, so a red run says which pace and pause broke and what the chat showed.
  const report = failed.map(
    (o) =>
      `${o.pace} ms, pause ${o.pause}: steps [${o.steps.join(',')}] ${o.texts.filter(Boolean).join(' | ').slice(0, 300)}`,
  )
  console.log(`channel stress: ${all.length - failed.length}/${all.length} completed`)
  expect(all).toHaveLength(kPaces.length * kPauses.length * kRepeats)
  expect(report).toEqual([])
}, 420_000)
