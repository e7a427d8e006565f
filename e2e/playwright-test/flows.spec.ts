import { readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, test } from '../../src/playwright/fixture'

// Every flow in flows/ (or AVA_FLOWS_DIR) is one test; the sample site comes from global-setup.ts.
const dir = process.env.AVA_FLOWS_DIR ?? resolve(import.meta.dirname, 'flows')
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.flow.json'))
  .sort()

// The bundled flows sign in to the sample site: a test has nobody to say yes, so the spec lets that
// kind of step go, as `ava run --allow credentials` does; anything riskier still stops.
test.use({ baseURL: process.env.AVA_SITE_URL, avaAllow: ['credentials'] })

for (const file of files) {
  test(file.replace(/\.flow\.json$/, ''), async ({ ava }) => {
    const report = await ava.run(join(dir, file))
    expect(report.steps.map((s) => s.status)).not.toContain('failed')
  })
}

test('pack action common:auth:login', async ({ ava, page }) => {
  const report = await ava.run(
    'common:auth:login',
    { username: 'bob', password: 'builder' },
    { url: '/login', allow: ['credentials'] },
  )
  expect(report.kind).toBe('action')
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText('Welcome, bob')).toBeVisible()
})

// The fixture is a door with nobody at it (docs/security.md, "Every door, one rule"): a destructive
// click is refused before it acts with UNATTENDED, naming `{ yes: true }`; with it the click is done.
test('a destructive click with nobody there is UNATTENDED, nothing done; with { yes: true } it runs', async ({
  ava,
  page,
}) => {
  const flow = {
    version: '1.0',
    metadata: { name: 'delete the account', created_at: '2026-01-01T00:00:00Z', start_url: '/hostile/pack-risk.html' },
    steps: [
      {
        step_id: 1,
        action: 'click',
        selectors: { primary: { type: 'css', value: 'css:#delete' } },
        description: 'the Delete account button',
      },
    ],
  }
  const refused = await ava.run(flow, {}, { url: '/hostile/pack-risk.html', allowFailure: true })
  expect(refused.success).toBe(false)
  expect(refused.result.error).toMatchObject({ code: 'UNATTENDED', message: expect.stringContaining('{ yes: true }') })
  expect(await page.evaluate(() => (window as unknown as { __deleted: string[] }).__deleted)).toEqual([])
  const done = await ava.run(flow, {}, { url: '/hostile/pack-risk.html', yes: true })
  expect(done.success).toBe(true)
  expect(await page.evaluate(() => (window as unknown as { __deleted: string[] }).__deleted)).toEqual(['account'])
})
