import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { chromium, type BrowserContext, type ConsoleMessage, type Page, type Worker } from 'playwright-core'
import { parse } from 'yaml'
import { baseArgs, chromiumPath, distDir } from '../support/browser'
import { startSiteServer, type SiteServer } from '../support/site-server'
import en from '../../src/core/locales/en'
import zhCN from '../../src/core/locales/zh-CN'

// the built extension in a browser whose language is English, then Chinese. The
// manifest's name and description come from _locales, the extension pages from vue-i18n (Chinese
// loaded lazily), the launcher's label from chrome.i18n; and vue-i18n compiles its messages with
// nothing the extension pages' CSP forbids (no eval, no new Function).

const root = resolve(import.meta.dirname, '../..')
const localeMessages = (dir: string) =>
  JSON.parse(readFileSync(resolve(root, 'public/_locales', dir, 'messages.json'), 'utf8')) as Record<
    string,
    { message: string }
  >
const packs = readdirSync(resolve(root, 'actions'))
  .filter((f) => f.endsWith('.yaml'))
  .map(
    (f) =>
      parse(readFileSync(resolve(root, 'actions', f), 'utf8')) as {
        namespace: string
        description: string
        description_zh?: string
        actions: Record<string, unknown>
      },
  )

/** The scripts an extension page loads before any dynamic import: its entry and static imports. */
function staticGraph(html: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const text = readFileSync(resolve(distDir, file), 'utf8')
    // `import{a}from"./x.js"` and `import"./x.js"`, not `import("./x.js")`.
    for (const m of text.matchAll(/\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g))
      visit(join(dirname(file), m[1]))
  }
  const page = readFileSync(resolve(distDir, html), 'utf8')
  for (const m of page.matchAll(/<script[^>]+src="\/([^"]+\.js)"/g)) visit(m[1])
  return [...seen]
}

const kLanguages = [
  {
    lang: 'en-US',
    ui: en,
    manifest: localeMessages('en'),
    plural: (n: number) => `${n} ${n === 1 ? 'action' : 'actions'}`,
    description: (p: (typeof packs)[number]) => p.description,
  },
  {
    lang: 'zh-CN',
    ui: zhCN,
    manifest: localeMessages('zh_CN'),
    plural: (n: number) => `${n} 个操作`,
    description: (p: (typeof packs)[number]) => p.description_zh ?? p.description,
  },
]

let site: SiteServer
beforeAll(async () => {
  site = await startSiteServer()
})
afterAll(async () => {
  await site?.close()
})

it('loads Chinese strings only for a Chinese UI: they are not in any page’s eager scripts', () => {
  for (const entry of ['src/panel/index.html', 'src/popup/index.html', 'src/options/index.html']) {
    const eager = staticGraph(entry)
    expect(eager.length, entry).toBeGreaterThan(1)
    const holding = eager.filter((f) => readFileSync(resolve(distDir, f), 'utf8').includes(zhCN['popup.empty']))
    expect(holding, entry).toEqual([])
  }
})

it('ships no eval or new Function in the extension pages’ scripts', () => {
  const assets = resolve(distDir, 'assets')
  const offending = readdirSync(assets).filter(
    (f) => f.endsWith('.js') && /\bnew Function\(|\beval\(/.test(readFileSync(resolve(assets, f), 'utf8')),
  )
  expect(offending).toEqual([])
})

describe.each(kLanguages)('in a browser set to $lang', ({ lang, ui, manifest, plural, description }) => {
  let context: BrowserContext
  let worker: Worker
  let extensionId: string
  const policyErrors: string[] = []
  const watch = (page: Page) => {
    const onConsole = (m: ConsoleMessage) => {
      if (/Content Security Policy|unsafe-eval|EvalError/i.test(m.text()))
        policyErrors.push(`${page.url()}: ${m.text()}`)
    }
    page.on('console', onConsole)
    page.on('pageerror', (e) => policyErrors.push(`${page.url()}: ${e.message}`))
    return page
  }
  const open = async (path: string) => {
    const page = watch(await context.newPage())
    await page.goto(`chrome-extension://${extensionId}/${path}`)
    return page
  }

  beforeAll(async () => {
    context = await chromium.launchPersistentContext('', {
      executablePath: chromiumPath,
      headless: true,
      args: [...baseArgs, `--lang=${lang}`, `--disable-extensions-except=${distDir}`, `--load-extension=${distDir}`],
      env: { ...process.env, LANGUAGE: lang.replace('-', '_') },
      locale: lang,
    })
    worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }))
    extensionId = new URL(worker.url()).host
  })
  afterAll(async () => {
    await context?.close()
  })

  it('names and describes the extension from _locales', async () => {
    const self = await worker.evaluate(() => chrome.management.getSelf())
    expect(self.name).toBe(manifest.extName.message)
    expect(self.description).toBe(manifest.extDescription.message)
    // chrome.runtime.getManifest() resolves __MSG_ too: the file itself says where they come from.
    const raw = JSON.parse(readFileSync(resolve(distDir, 'manifest.json'), 'utf8')) as Record<string, unknown>
    expect(raw).toMatchObject({ default_locale: 'en', name: '__MSG_extName__', description: '__MSG_extDescription__' })
  })

  it('shows the popup in the language, with plurals and the packs’ own descriptions', async () => {
    const popup = await open('src/popup/index.html')
    await popup.waitForSelector('[data-test=pack]')
    expect(await popup.evaluate(() => document.documentElement.lang)).toBe(lang === 'en-US' ? 'en' : 'zh-CN')
    for (const p of packs) {
      const card = popup.locator(`[data-test=pack][data-namespace="${p.namespace}"]`)
      expect(await card.locator('[data-test=pack-actions]').textContent()).toBe(plural(Object.keys(p.actions).length))
      expect((await card.locator('.desc').textContent())?.trim()).toBe(description(p))
      // Deprecated aliases: the notice is in the UI's language (the author's message is English).
      const aliases = Object.entries(
        p.actions as Record<string, { deprecated?: boolean; alias_of?: string; deprecated_message?: string }>,
      ).filter(([, a]) => a.deprecated && a.alias_of)
      for (const [name, a] of aliases) {
        const note =
          lang === 'zh-CN'
            ? ui['popup.deprecatedUse'].replace('{target}', `${p.namespace}:${a.alias_of}`)
            : ui['popup.deprecatedNote'].replace('{message}', a.deprecated_message ?? '')
        expect(await card.locator('[data-test=pack-deprecated]').textContent()).toContain(
          note.replace('{action}', `${p.namespace}:${name}`),
        )
      }
    }
    await popup.close()
  })

  it('shows the options page in the language', async () => {
    const options = await open('src/options/index.html')
    await expect.poll(() => options.textContent('h1')).toBe(ui['options.title'])
    await options.close()
  })

  it('shows the panel and the launcher’s label in the language', async () => {
    const page = watch(await context.newPage())
    await page.goto(`${site.url}/login`)
    await page.waitForSelector('ava-root[data-ava-ready]', { state: 'attached' })
    // The button is in a closed shadow root: read its name as assistive technology does.
    const cdp = await context.newCDPSession(page)
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { role?: { value: string }; name?: { value: string } }[]
    }
    const buttons = nodes.filter((n) => n.role?.value === 'button').map((n) => n.name?.value)
    expect(buttons).toContain(manifest.launcherLabel.message)
    await cdp.detach()

    const vp = page.viewportSize()!
    await page.mouse.click(vp.width - 20 - 26, vp.height - 20 - 26)
    const prefix = `chrome-extension://${extensionId}/src/panel/`
    await expect.poll(() => page.frames().some((f) => f.url().startsWith(prefix)), { timeout: 10_000 }).toBe(true)
    const panel = page.frames().find((f) => f.url().startsWith(prefix))!
    await panel.waitForSelector('[data-test=input]')
    await expect.poll(() => panel.getAttribute('[data-test=input]', 'placeholder')).toBe(ui['panel.placeholder'])
    await page.close()
  })

  it('follows a language chosen in the options, live, in an open popup', async () => {
    const popup = await open('src/popup/index.html')
    await popup.waitForSelector('[data-test=pack]')
    const other =
      lang === 'en-US'
        ? { pref: 'zh-CN', ui: zhCN, plural: kLanguages[1].plural }
        : { pref: 'en', ui: en, plural: kLanguages[0].plural }
    await worker.evaluate((language) => chrome.storage.local.set({ ui: { version: 1, language } }), other.pref)
    const common = packs.find((p) => p.namespace === 'common')!
    const count = popup.locator('[data-test=pack][data-namespace=common] [data-test=pack-actions]')
    await expect.poll(() => count.textContent()).toBe(other.plural(Object.keys(common.actions).length))
    await worker.evaluate(() => chrome.storage.local.remove('ui'))
    await expect.poll(() => count.textContent()).toBe(plural(Object.keys(common.actions).length))
    await popup.close()
  })

  it('meets no Content Security Policy error on any page', () => {
    expect(policyErrors).toEqual([])
  })
})
