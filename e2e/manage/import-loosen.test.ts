import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { launchAva, type Ava } from '../support/ava'
import { openOptions } from './helpers'

/**
 * A shared settings file never loosens what the person set (docs/settings.md, "Import"): a file
 * written for this test empties the never-capture list, switches screenshots back on and replaces
 * a saved secret. The import keeps all three as stored and says so, in English and in Chinese;
 * only the person's yes to that list applies them.
 */
let ava: Ava
let options: Page

const local = async () =>
  (await ava.storage('local')) as {
    settings: { screenshots?: { enabled: boolean; offSites: string[] } }
    vault: Record<string, string>
  }

beforeAll(async () => {
  ava = await launchAva()
  options = await openOptions(ava)
})
afterAll(async () => {
  await ava?.close()
})

/** The person's own settings, set in Options as they would: screenshots never of their bank or mail, on or off, and a saved secret. */
async function personSettings(enabled: boolean): Promise<void> {
  await options.reload()
  await options.waitForSelector('[data-test=settings-form]')
  if (!(await options.isChecked('[data-test=screenshots]'))) await options.check('[data-test=screenshots]')
  await options.fill('[data-test=screenshotsOff]', 'bank.example, mail.example')
  if (!enabled) await options.uncheck('[data-test=screenshots]')
  await options.click('[data-test=save]')
  await expect
    .poll(async () => (await local()).settings?.screenshots)
    .toEqual({ enabled, offSites: ['bank.example', 'mail.example'] })
  await (await ava.worker()).evaluate(() => chrome.storage.local.set({ vault: { bank: 'ORIGINAL-VALUE-1' } }))
}

/** "My Ava config": the person's own export, with the loosening written in. */
async function hostileFile(extra: Record<string, unknown> = {}): Promise<Buffer> {
  const [download] = await Promise.all([options.waitForEvent('download'), options.click('[data-test=export]')])
  const { readFile } = await import('node:fs/promises')
  const file = JSON.parse(await readFile((await download.path())!, 'utf8'))
  file.settings.screenshots = { enabled: true, offSites: [] }
  file.vault = { bank: 'ATTACKER-VALUE-2', newone: 'added-by-file' }
  return Buffer.from(JSON.stringify({ ...file, ...extra }))
}

it('keeps the never-capture list, screenshots off and a saved secret, lists each, and applies them only on yes', async () => {
  await personSettings(false)
  await options.setInputFiles('[data-test=import]', {
    name: 'ava-config.json',
    mimeType: 'application/json',
    buffer: await hostileFile(),
  })
  await expect
    .poll(() => options.textContent('[data-test=notice]'))
    .toContain('would let Ava take screenshots of bank.example, mail.example: kept on the never-capture list')
  const notice = await options.textContent('[data-test=notice]')
  expect(notice).toContain('would switch screenshots on: kept off')
  expect(notice).toContain('would replace your saved secrets bank: your values were kept')
  let stored = await local()
  expect(stored.settings.screenshots).toEqual({ enabled: false, offSites: ['bank.example', 'mail.example'] })
  // A new name is added; the stored one keeps its value.
  expect(stored.vault).toEqual({ bank: 'ORIGINAL-VALUE-1', newone: 'added-by-file' })

  // The person read the list and says yes: now the file applies as written.
  await options.click('[data-test=import-accept]')
  await expect
    .poll(() => options.textContent('[data-test=notice]'))
    .toBe('Settings imported, with the changes you allowed.')
  stored = await local()
  expect(stored.settings.screenshots).toEqual({ enabled: true, offSites: [] })
  expect(stored.vault.bank).toBe('ATTACKER-VALUE-2')
  expect(await options.locator('[data-test=import-accept]').count()).toBe(0)
}, 60_000)

it('says what was kept in Chinese', async () => {
  await personSettings(true)
  const file = await hostileFile()
  const json = JSON.parse(file.toString())
  json.ui = { version: 1, language: 'zh-CN' }
  await options.setInputFiles('[data-test=import]', {
    name: 'ava-config.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(json)),
  })
  await expect.poll(() => options.textContent('[data-test=notice]')).toContain('已保留在“绝不截图”列表中')
  expect(await options.textContent('[data-test=notice]')).toContain('已保留你的值')
  expect(await options.textContent('[data-test=import-accept]')).toBe('也应用这些更改')
  expect((await local()).settings.screenshots!.offSites).toEqual(['bank.example', 'mail.example'])
}, 60_000)
