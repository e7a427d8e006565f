/**
 * Schedules in the built extension (docs/agent.md, "Schedules"): a watch over a feed whose rows
 * change between runs reports exactly the rows added, removed and changed, with no model call; a
 * scheduled pack step that needs a yes waits for the person (a notification, nothing acted until
 * answered in its tab's panel).
 *
 * Firing a schedule without waiting real time: the test, from inside the extension's service
 * worker (Playwright's handle on it, which no web page has), moves the stored schedule's due time
 * into the past and creates its real alarm (`ava.schedule:<id>`) for now. Chrome then fires that
 * alarm and the worker's one `alarms.onAlarm` listener runs it, exactly as at the due time: no
 * test-only code is in the extension.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { launchAva, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'
import type { Schedule } from '../../src/core/schedule/model'

let ava: Ava
let llm: LlmServer
let site: SiteServer
let feed: { url: string; rows: [string, string, string][]; server: Server }

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startSiteServer()])
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
  // The feed: a table whose rows carry the site's own ids, served afresh on every load.
  const rows: [string, string, string][] = []
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end(
      `<!doctype html><html lang="en"><head><title>Orders</title></head><body><h1>Orders</h1>
      <table id="orders"><thead><tr><th>Id</th><th>Customer</th><th>Total</th></tr></thead><tbody>
      ${rows.map(([id, who, total]) => `<tr data-id="${id}"><td>${id}</td><td>${who}</td><td>${total}</td></tr>`).join('')}
      </tbody></table></body></html>`,
    )
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  feed = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/orders`, rows, server }
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close(), new Promise((r) => feed?.server.close(r))])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
})

/** An extension page to send the popup's messages from, as its store would. */
async function extensionPage(): Promise<Page> {
  const page = await ava.context.newPage()
  await page.goto(`chrome-extension://${ava.extensionId}/src/popup/index.html`)
  return page
}

type Reply<T> = ({ ok: true } & T) | { ok: false; code: string; message: string }
async function sendFrom<T>(page: Page, name: string, req: unknown): Promise<Reply<T>> {
  const raw = (await page.evaluate(([n, r]) => chrome.runtime.sendMessage({ ava: 1, name: n, req: r }), [
    name,
    req,
  ] as const)) as { ok: true; res: T } | { ok: false; error: { code: string; message: string } }
  return raw.ok ? { ok: true, ...raw.res } : { ok: false, ...raw.error }
}

async function schedules(): Promise<Record<string, Schedule>> {
  return ((await ava.storage('local')).schedules ?? {}) as Record<string, Schedule>
}

/** Makes the schedule due now and fires its real alarm (see the file's comment); resolves when its run is recorded. */
async function fire(id: string): Promise<Schedule> {
  const before = (await schedules())[id]?.last?.at ?? 0
  await trigger(id)
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const s = (await schedules())[id]
    if (s?.last && s.last.at > before) return s
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error('the scheduled run was not recorded')
}

/** Makes the schedule due now and creates its real alarm for now. */
async function trigger(id: string): Promise<void> {
  await (
    await ava.worker()
  ).evaluate(async (id) => {
    const { schedules } = (await chrome.storage.local.get('schedules')) as {
      schedules: Record<string, { dueAt: number }>
    }
    schedules[id].dueAt = Date.now() - 1_000
    await chrome.storage.local.set({ schedules })
    await chrome.alarms.create(`ava.schedule:${id}`, { when: Date.now() })
  }, id)
}

const notifications = async (): Promise<string[]> =>
  Object.keys(await (await ava.worker()).evaluate(() => chrome.notifications.getAll()))

/** RFC 4180 records (no quoted line breaks in these rows). */
const csvRows = (text: string) => text.trim().split('\r\n')

it(
  'a scheduled watch reports exactly the rows added, removed and changed, with no model call',
  { timeout: 120_000 },
  async () => {
    feed.rows.splice(
      0,
      feed.rows.length,
      ['1001', 'Alice', '10.00'],
      ['1002', 'Bob', '12.00'],
      ['1003', 'Carol', '9.50'],
    )
    const page = await extensionPage()
    const added = await sendFrom<{ schedule: Schedule }>(page, 'ui→bg:schedule.add', {
      target: { kind: 'watch', url: feed.url, target: '#orders' },
      every: 'daily',
      when: '09:00',
      timeZone: 'Europe/Berlin',
    })
    expect(added.ok, JSON.stringify(added)).toBe(true)
    const id = (added as { schedule: Schedule }).schedule.id
    // The alarm is set for its due time, from storage.
    const alarm = await (await ava.worker()).evaluate((n) => chrome.alarms.get(n), `ava.schedule:${id}`)
    expect(alarm?.scheduledTime).toBe((await schedules())[id].dueAt)

    const first = await fire(id)
    expect(first.last).toMatchObject({ outcome: 'done', counts: { added: 3, removed: 0, changed: 0 } })

    // Between runs the feed changes: 1001 leaves, 1002's total changes, 1004 arrives; 1003 moves.
    feed.rows.splice(0, feed.rows.length, ['1004', 'Dan', '7.25'], ['1003', 'Carol', '9.50'], ['1002', 'Bob', '15.00'])
    const second = await fire(id)
    expect(second.last).toMatchObject({ outcome: 'done', counts: { added: 1, removed: 1, changed: 1 } })
    const csv = await sendFrom<{ csv: string }>(page, 'ui→bg:schedule.csv', { id })
    expect(csvRows((csv as { csv: string }).csv)).toEqual([
      'Change,Id,Customer,Total',
      'added,1004,Dan,7.25',
      'removed,1001,Alice,10.00',
      'changed,1002,Bob,15.00',
      'was,1002,Bob,12.00',
    ])
    expect(await notifications()).toContain(`watch:${id}`)
    // The watch's tabs were its own and are closed; the model was never asked.
    expect(ava.context.pages().some((p) => p.url().startsWith(feed.url))).toBe(false)
    expect(llm.requests).toHaveLength(0)
    await page.close()
  },
)

it(
  'a scheduled step that needs a yes waits for the person: a notification, nothing done until answered',
  { timeout: 120_000 },
  async () => {
    const page = await extensionPage()
    const added = await sendFrom<{ schedule: Schedule }>(page, 'ui→bg:schedule.add', {
      target: {
        kind: 'action',
        action: 'elementplus:dialog:open',
        params: { trigger: 'Delete account' },
        url: `${site.url}/hostile/pack-risk.html`,
      },
      every: 'hourly',
      when: '30',
      timeZone: 'UTC',
    })
    expect(added.ok, JSON.stringify(added)).toBe(true)
    const id = (added as { schedule: Schedule }).schedule.id
    await trigger(id)
    // The run's own tab, and the notification that a step waits there.
    let tab: Page | undefined
    let shown: string | undefined
    for (const until = Date.now() + 30_000; Date.now() < until && !(tab && shown);) {
      tab = ava.context.pages().find((p) => p.url().includes('/hostile/pack-risk.html'))
      shown = (await notifications()).find((n) => n.startsWith(`ask:${id}:`))
      await new Promise((r) => setTimeout(r, 200))
    }
    expect(shown, 'a notification that a step waits').toBeTruthy()
    expect(tab).toBeTruthy()
    // Waiting, nothing was clicked, however long nobody answers.
    await new Promise((r) => setTimeout(r, 1_500))
    expect(await tab!.evaluate(() => (window as unknown as { __deleted: string[] }).__deleted)).toEqual([])
    // The person opens the tab's panel and says yes: the step goes on, the run ends done.
    // As the notification's click does: the run's tab (opened in the background) comes forward.
    await tab!.bringToFront()
    const panel = await ava.openPanel(tab!)
    // The panel takes a click only once it has been fully visible a moment (src/panel/visibility.ts): click until the card shows the yes.
    const allowed = panel.locator('[data-test=confirm][data-state=allowed]')
    await expect
      .poll(
        async () => {
          if (await allowed.count()) return true
          await panel
            .locator('[data-test=confirm][data-state=pending] [data-test=confirm-allow]')
            .first()
            .click({ timeout: 1_000 })
            .catch(() => undefined)
          return (await allowed.count()) > 0
        },
        { timeout: 15_000, interval: 600 },
      )
      .toBe(true)
    await expect
      .poll(() => tab!.evaluate(() => (window as unknown as { __deleted: string[] }).__deleted), { timeout: 15_000 })
      .toEqual(['account'])
    expect(llm.requests).toHaveLength(0)
    await page.close()
  },
)

it('bad input is refused with one clear code: a bad time, an unknown pack action', async () => {
  const page = await extensionPage()
  const bad = await sendFrom(page, 'ui→bg:schedule.add', {
    target: { kind: 'watch', url: feed.url },
    every: 'daily',
    when: '25:00',
    timeZone: 'UTC',
  })
  expect(bad).toMatchObject({ ok: false, code: 'SCHEDULE_TIME' })
  const unknown = await sendFrom(page, 'ui→bg:schedule.add', {
    target: { kind: 'action', action: 'nosuch:pack:action', params: {}, url: feed.url },
    every: 'daily',
    when: '09:00',
    timeZone: 'UTC',
  })
  expect(unknown).toMatchObject({ ok: false, code: 'SCHEDULE_TARGET' })
  await page.close()
})

it(
  'times missed while the browser was closed: reported skipped at the next start (missed: skip), or run once (missed: run)',
  { timeout: 120_000 },
  async () => {
    feed.rows.splice(0, feed.rows.length, ['2001', 'Eve', '1.00'])
    const page = await extensionPage()
    const ids: Record<'run' | 'skip', string> = { run: '', skip: '' }
    for (const missed of ['run', 'skip'] as const) {
      const added = await sendFrom<{ schedule: Schedule }>(page, 'ui→bg:schedule.add', {
        target: { kind: 'watch', url: feed.url, target: '#orders' },
        every: 'daily',
        when: '06:00',
        timeZone: 'UTC',
        missed,
      })
      expect(added.ok, JSON.stringify(added)).toBe(true)
      ids[missed] = (added as { schedule: Schedule }).schedule.id
    }
    await page.close()
    // The browser was closed for three days: each schedule's time passed three times, and its alarm
    // is gone (Chrome may drop alarms on a restart). Then the worker starts again.
    const w = await ava.worker()
    await w.evaluate(async (ids) => {
      const { schedules } = (await chrome.storage.local.get('schedules')) as {
        schedules: Record<string, { dueAt: number }>
      }
      for (const id of ids) {
        schedules[id].dueAt -= 3 * 86_400_000 // its next time, three days earlier: three due times have passed
        await chrome.alarms.clear(`ava.schedule:${id}`)
      }
      await chrome.storage.local.set({ schedules })
    }, Object.values(ids))
    // The worker stops as Chrome stops an idle one; the next to start is a new one (not the handle
    // Playwright may still list for the old).
    await ava.stopWorker()
    // Something wakes the new worker, as the browser's start does: here the popup opening.
    const popup = await extensionPage()
    // The next worker to answer is a new one, which catches up at its start (a handle Playwright
    // may still list for the stopped one never answers: asked again until one does).
    await expect
      .poll(
        () =>
          Promise.race([
            ava.worker().then((x) => x.evaluate(() => true)),
            new Promise((r) => setTimeout(() => r(false), 2_000)),
          ]).catch(() => false),
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true)
    let all: Record<string, Schedule> = {}
    await expect
      .poll(
        async () => {
          all = await schedules()
          return [all[ids.run]?.last?.outcome, all[ids.skip]?.last?.outcome]
        },
        { timeout: 60_000, interval: 300 },
      )
      .toEqual(['done', 'skipped'])
    expect(all[ids.skip].last).toMatchObject({ outcome: 'skipped', skipped: 3 })
    expect(all[ids.run].last).toMatchObject({ outcome: 'done', skipped: 2, counts: { added: 1 } })
    // Both are due again at their next time, with their alarm set again.
    for (const id of Object.values(ids)) {
      expect(all[id].dueAt).toBeGreaterThan(Date.now())
      const alarm = await (await ava.worker()).evaluate((n) => chrome.alarms.get(n), `ava.schedule:${id}`)
      expect(alarm?.scheduledTime).toBe(all[id].dueAt)
    }
    expect(await notifications()).toContain(`skip:${ids.skip}`)
    await popup.close()
    expect(llm.requests).toHaveLength(0)
  },
)
