import { afterAll, beforeAll, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parse } from 'yaml'
import { launchAva, type Ava } from '../support/ava'

let ava: Ava
beforeAll(async () => {
  ava = await launchAva()
})
afterAll(async () => {
  await ava?.close()
})

it('lists the built-in action packs with name, version and number of actions', async () => {
  const dir = resolve(import.meta.dirname, '../../actions')
  const expected = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map(
      (f) =>
        parse(readFileSync(resolve(dir, f), 'utf8')) as {
          namespace: string
          version: string
          actions: Record<string, unknown>
        },
    )
    .map((p) => ({ name: p.namespace, version: `v${p.version}`, actions: `${Object.keys(p.actions).length} actions` }))
  expect(expected.length).toBeGreaterThan(0)

  const popup = await ava.context.newPage()
  await popup.goto(`chrome-extension://${ava.extensionId}/src/popup/index.html`)
  await popup.waitForSelector('[data-test=pack]')
  const shown = await popup.$$eval('[data-test=pack]', (els) =>
    els.map((e) => ({
      name: e.querySelector('[data-test=pack-name]')!.textContent,
      version: e.querySelector('[data-test=pack-version]')!.textContent,
      actions: e.querySelector('[data-test=pack-actions]')!.textContent,
    })),
  )
  expect(shown).toEqual(expect.arrayContaining(expected))
  expect(shown).toHaveLength(expected.length)
})
