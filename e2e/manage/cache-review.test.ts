// In the popup: a cached plan a page could have shaped says so in the Cache tab, with
// its risky steps, until the person approves it there (or when Ava asks before replaying it).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchAva, type Ava } from '../support/ava'
import { openPopup } from './helpers'

let ava: Ava
beforeAll(async () => {
  ava = await launchAva()
})
afterAll(() => ava?.close())

const entry = (key: string, request: string, provenance?: object, reviewedAt?: number) => ({
  key,
  request,
  origin: 'https://mail.example',
  path: '/inbox',
  steps: [
    { step_id: 1, action_type: 'click', params: { semantic_locator: 'Settings' }, description: 'Open settings' },
    {
      step_id: 2,
      action_type: 'click',
      params: { semantic_locator: 'Add forwarding rule' },
      description: 'Add a forwarding rule',
    },
  ],
  createdAt: 1,
  updatedAt: 1,
  hits: 0,
  repairs: 0,
  ...(provenance ? { provenance } : {}),
  ...(reviewedAt ? { reviewedAt } : {}),
})

it('marks a page-shaped plan in the Cache tab with its risky steps, and Approve clears the mark', async () => {
  const shaped = { pageShaped: true, risky: [{ index: 1, why: 'settings', text: 'Add a forwarding rule' }] }
  await (
    await ava.worker()
  ).evaluate(
    (all) => chrome.storage.local.set({ instructionCache: all }),
    Object.fromEntries(
      [
        entry('k1', 'tidy my inbox', shaped),
        entry('k2', 'open my inbox'),
        entry('k3', 'tidy my other inbox', shaped, 5),
      ].map((e) => [e.key, e]),
    ),
  )
  const popup = await openPopup(ava)
  await popup.click('[data-test=tab-cache]')
  await popup.waitForSelector('[data-test=cache-entry]')
  const card = (request: string) =>
    popup.locator('[data-test=cache-entry]', { has: popup.locator('strong', { hasText: new RegExp(`^${request}$`) }) })
  // Only the unreviewed page-shaped plan is marked, and the mark names its risky step.
  expect(await card('tidy my inbox').locator('[data-test=cache-review]').textContent()).toContain(
    '2. Add a forwarding rule',
  )
  expect(await card('open my inbox').locator('[data-test=cache-review]').count()).toBe(0)
  expect(await card('tidy my other inbox').locator('[data-test=cache-review]').count()).toBe(0)

  await card('tidy my inbox').locator('[data-test=cache-approve]').click()
  await card('tidy my inbox').locator('[data-test=cache-review]').waitFor({ state: 'detached' })
  const stored = await (
    await ava.worker()
  ).evaluate(() =>
    chrome.storage.local
      .get('instructionCache')
      .then((r) => r.instructionCache as Record<string, { reviewedAt?: number }>),
  )
  expect(stored.k1.reviewedAt).toBeGreaterThan(0)
  expect(stored.k2.reviewedAt).toBeUndefined()
  await popup.close()
})
