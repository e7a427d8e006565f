import { readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, test } from '../../src/playwright/fixture'

// Every flow in flows/ (or AVA_FLOWS_DIR) is one test; the sample site comes from global-setup.ts.
const dir = process.env.AVA_FLOWS_DIR ?? resolve(import.meta.dirname, 'flows')
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.flow.json'))
  .sort()

test.use({ baseURL: process.env.AVA_SITE_URL })

for (const file of files) {
  test(file.replace(/\.flow\.json$/, ''), async ({ ava }) => {
    const report = await ava.run(join(dir, file))
    expect(report.steps.map((s) => s.status)).not.toContain('failed')
  })
}

test('pack action common:auth:login', async ({ ava, page }) => {
  const report = await ava.run('common:auth:login', { username: 'bob', password: 'builder' }, { url: '/login' })
  expect(report.kind).toBe('action')
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByText('Welcome, bob')).toBeVisible()
})
