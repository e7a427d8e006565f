import type { Frame, Page, Worker } from 'playwright-core'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { DEFAULT_SETTINGS, type LlmSettings, type Settings } from '../../src/core/settings'
import { launchWithExtension, type ExtensionSession } from './browser'
import { startLlmServer, type LlmServer } from './llm-server'
import { startSiteServer, type SiteServer } from './site-server'

/** The built extension in Chromium, with helpers that act as a person would. */
export interface Ava extends Omit<ExtensionSession, 'worker'> {
  /** The extension's service worker as it is now (a stopped worker comes back as a new one). */
  worker(): Promise<Worker>
  /** Stops the service worker the way Chrome does when it is idle, through the DevTools protocol. */
  stopWorker(): Promise<void>
  /** Writes settings (current version) with one active profile made of `llm`. */
  /** `rest.safety`: the fields given, the rest as a fresh install has them. */
  configure(
    llm: Partial<LlmSettings>,
    rest?: Partial<Omit<Settings, 'profiles' | 'activeProfile' | 'version' | 'safety'>> & {
      safety?: Partial<Settings['safety']>
    },
  ): Promise<void>
  storage(area: 'local' | 'session'): Promise<Record<string, unknown>>
  /** Saves vault entries, each bound to the sites (origins) given: none, bound to no site. */
  saveSecrets(secrets: Record<string, { value: string; sites?: string[] }>): Promise<void>
  openPanel(page: Page): Promise<Frame>
  panel(page: Page, opts?: { timeout?: number }): Promise<Frame>
  ask(page: Page, text: string): Promise<Frame>
}

const kButton = { size: 52, margin: 20 } // mirrors src/content/launcher.ts

export async function launchAva(opts: { headless?: boolean; keepWelcome?: boolean; dist?: string } = {}): Promise<Ava> {
  const s = await launchWithExtension(opts)
  const panelPrefix = `chrome-extension://${s.extensionId}/src/panel/`

  async function panel(page: Page, opts: { timeout?: number } = {}): Promise<Frame> {
    const deadline = Date.now() + (opts.timeout ?? 10_000)
    for (;;) {
      const f = page.frames().find((fr) => fr.url().startsWith(panelPrefix))
      if (f) {
        await f.waitForSelector('[data-test=input]', { timeout: Math.max(1, deadline - Date.now()) })
        return f
      }
      if (Date.now() > deadline) throw new Error('The Ava panel did not appear')
      await page.waitForTimeout(50)
    }
  }

  async function worker(): Promise<Worker> {
    const live = s.context.serviceWorkers().filter((w) => w.url().startsWith(`chrome-extension://${s.extensionId}/`))
    if (live.length) return live.at(-1)!
    // Wake it: an extension page's message starts the worker.
    const p = await s.context.newPage()
    const woken = s.context.waitForEvent('serviceworker', { timeout: 10_000 })
    await p.goto(`chrome-extension://${s.extensionId}/src/popup/index.html`)
    const w = await woken
    await p.close()
    return w
  }

  const ava: Ava = {
    ...s,
    worker,
    async stopWorker() {
      const cdp = await s.context.browser()!.newBrowserCDPSession()
      const { targetInfos } = await cdp.send('Target.getTargets')
      const sw = targetInfos.find(
        (t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${s.extensionId}/`),
      )
      if (!sw) throw new Error('The service worker is not running')
      await cdp.send('Target.closeTarget', { targetId: sw.targetId })
      await cdp.detach()
    },
    async configure(llm, rest = {}) {
      const base = structuredClone(DEFAULT_SETTINGS)
      const settings: Settings = {
        ...base,
        ...rest,
        safety: { ...base.safety, ...rest.safety },
        profiles: [{ ...base.profiles[0], ...llm }],
        activeProfile: base.profiles[0].id,
      }
      await (await worker()).evaluate((v) => chrome.storage.local.set({ settings: v }), settings)
    },
    storage: async (area) => (await worker()).evaluate((a) => chrome.storage[a].get(null), area),
    async saveSecrets(secrets) {
      const vault = Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, v.value]))
      const vaultSites = Object.fromEntries(Object.entries(secrets).map(([k, v]) => [k, v.sites ?? []]))
      await (
        await worker()
      ).evaluate(([v, s]) => chrome.storage.local.set({ vault: v, vaultSites: s }), [vault, vaultSites] as const)
    },
    async openPanel(page: Page) {
      // The button lives in a closed shadow root: a person clicks it where it is drawn — unless
      // the panel is already open (it reopens by itself after a navigation during a conversation).
      await page.waitForSelector('ava-root[data-ava-ready]', { state: 'attached' })
      const vp = page.viewportSize()!
      const visibleFrame = async () => {
        for (const fr of page.frames()) {
          if (!fr.url().startsWith(panelPrefix)) continue
          if (await (await fr.frameElement()).isVisible().catch(() => false)) return fr
        }
        return null
      }
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await visibleFrame()) break
        await page.mouse.click(
          vp.width - kButton.margin - kButton.size / 2,
          vp.height - kButton.margin - kButton.size / 2,
        )
        await page.waitForTimeout(150)
      }
      const f = await panel(page)
      await f.waitForSelector('[data-test=send]:not([disabled])')
      return f
    },
    panel,
    async ask(page, text) {
      const f = await ava.openPanel(page)
      // The site's chat may hold earlier runs: return once this request's answer has begun, so
      // `.last()` in a test is this run's message, not the one before (a click is acted on a
      // moment after it lands: the panel's click guard, src/panel/visibility.ts).
      const before = await f.locator('[data-role=assistant]').count()
      await pressSend(f, text)
      // A run that navigates at once takes the panel's document with it: the request went out.
      await f
        .locator('[data-role=assistant]')
        .nth(before)
        .waitFor({ state: 'attached' })
        .catch(() => undefined)
      return f
    },
  }
  return ava
}

/**
 * Types a request and presses Send as a person does. The panel acts on a click only once it has
 * been in plain view for 500 ms (src/panel/visibility.ts), and says so when it did not: a person
 * who sees that note, the request still in the box, clicks again. Returns once the click was acted
 * on (the request is in the chat, the box empties, the panel says why it refused the request, or
 * a navigation took the panel), or after `ms` with none of those; the caller's own wait then says
 * what did not happen.
 */
export async function pressSend(panel: Frame, text: string, ms = 30_000): Promise<void> {
  const users = panel.locator('[data-role=user]')
  const before = await users.count()
  const shown = panel.locator('[data-test=error]')
  const error = async () =>
    (await shown.count().catch(() => 0))
      ? await shown
          .first()
          .textContent()
          .catch(() => null)
      : null
  const errorBefore = await error()
  await panel.fill('[data-test=input]', text)
  const deadline = Date.now() + ms
  for (;;) {
    const clicked = Date.now()
    await panel.click('[data-test=send]', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined)
    for (;;) {
      if (panel.isDetached()) return
      // Acted on: the request is in the chat (a slash command's stays in the box until it ends).
      if ((await users.count().catch(() => before + 1)) > before) return
      // Acted on and refused: the panel says why, the request back in the box.
      if ((await error()) !== errorBefore) return
      const left = await panel.inputValue('[data-test=input]', { timeout: 1_000 }).catch(() => null)
      if (left === null || left !== text) return
      if (Date.now() > deadline) return
      // A click acted on clears the note at once; one still shown a second later refused this click.
      const refused = Date.now() - clicked > 1_000 && (await panel.isVisible('[data-test=obscured]').catch(() => false))
      if (refused) break
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

/**
 * Types a request and presses Send, and returns once the panel has taken it (the person's message
 * is in the chat). Send acts a moment after the click lands (the panel's click guard,
 * src/panel/visibility.ts): a test that reads the chat before then reads the run before, and its
 * next request's text would be the one this click sends.
 */
export async function sendRequest(panel: Frame, text: string): Promise<void> {
  const before = await panel.locator('[data-role=user]').count()
  await pressSend(panel, text)
  await panel.locator('[data-role=user]').nth(before).waitFor({ state: 'attached', timeout: 10_000 })
}

/**
 * Sends a request from an open panel and waits for its run to end: a run always ends by writing
 * its token usage onto its assistant message, so that is the marker (not the Send button, which
 * is enabled for a moment before the run's status arrives).
 */
export async function sendAndWait(panel: Frame, text: string, opts: { timeout?: number } = {}): Promise<void> {
  const before = await panel.locator('[data-role=assistant]').count()
  await pressSend(panel, text)
  await panel
    .locator('[data-role=assistant]')
    .nth(before)
    .locator('[data-test=usage]')
    .waitFor({ timeout: opts.timeout ?? 30_000 })
}

/** Answers every risky-step question in the panel with Allow until `done` resolves. */
export async function allowAll(
  page: Page,
  until: Promise<unknown>,
  getPanel: (page: Page) => Promise<Frame>,
): Promise<void> {
  let finished = false
  void until.finally(() => (finished = true))
  while (!finished) {
    try {
      const f = await getPanel(page)
      const btn = f.locator('[data-test=confirm-allow]')
      if (await btn.count()) await btn.first().click({ timeout: 1_000 })
    } catch {
      // the page is between documents; try again
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * The steps of the newest run as the panel shows them (the chat also holds the site's earlier
 * runs): `note` is the line under a step (a success's result, in the UI language), `detail` what
 * is behind its Details toggle, else that line; `toggles` counts its Details.
 */
export async function readSteps(
  f: Frame,
): Promise<{ status: string; detail: string; note: string; toggles: number }[]> {
  const last = f.locator('[data-role=assistant]').last()
  if (!(await last.count())) return []
  return last.locator('[data-test=step]').evaluateAll((els) =>
    els.map((e) => {
      const note = e.querySelector('[data-test=step-note]')?.textContent ?? ''
      return {
        status: e.getAttribute('data-status') ?? '',
        detail: e.querySelector('[data-test=step-detail]')?.textContent ?? note,
        note,
        toggles: e.querySelectorAll('details').length,
      }
    }),
  )
}

/** Instructions as the LLM would stream them: one array, one element per chunk. */
export function instructionChunks(instructions: object[]): string[] {
  return ['[', ...instructions.map((x, i) => JSON.stringify(x) + (i < instructions.length - 1 ? ',' : '')), ']']
}

export interface AgentWorld {
  ava: Ava
  llm: LlmServer
  site: SiteServer
}

/**
 * The set-up most agent tests share: one Chromium with Ava, configured for a scripted model on
 * loopback, and the sample site, for the whole file; before each test the model's script, its
 * recorded requests and the site's hits are cleared. `use` receives them once they are up.
 */
export function withAgentWorld(use: (world: AgentWorld) => void): void {
  setUpWorld([], (world) => use(world))
}

export interface TwoSiteWorld extends AgentWorld {
  /** A second site on another origin (`localhost`, where `site` is 127.0.0.1): "another site". */
  other: SiteServer
}

/** `withAgentWorld` with a second site on another origin, for the tests of where a step may act. */
export function withTwoSites(use: (world: TwoSiteWorld) => void): void {
  setUpWorld([{ host: 'localhost' }], (world, [other]) => use({ ...world, other }))
}

function setUpWorld(
  moreSites: Parameters<typeof startSiteServer>[0][],
  use: (world: AgentWorld, more: SiteServer[]) => void,
): void {
  let world: AgentWorld | undefined
  let more: SiteServer[] = []
  beforeAll(async () => {
    const [ava, llm, site, ...rest] = await Promise.all([
      launchAva(),
      startLlmServer(),
      startSiteServer(),
      ...moreSites.map((o) => startSiteServer(o)),
    ])
    world = { ava, llm, site }
    more = rest
    await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
    use(world, more)
  })
  afterAll(async () => {
    await Promise.all([world?.ava.close(), world?.llm.close(), world?.site.close(), ...more.map((s) => s.close())])
  })
  beforeEach(() => {
    world!.llm.requests.length = 0
    world!.llm.script()
    for (const s of [world!.site, ...more]) s.hits.length = 0
  })
}

/**
 * What Ava listed on `page`, read as a person reads it: from the panel's overlay toggle, which
 * outlines each listed element with its id (Ava writes nothing into the page for its ids). Each
 * outline is matched to the innermost element drawn in exactly that box: `at` is its
 * `className || id`, `text` its text. `idOf` gives the id outlined on the element at each of
 * `selectors`. The overlay is turned off again before this returns.
 */
/**
 * Turns the panel's debug overlay on or off, as a person would: a click the panel refused (it takes
 * clicks only after it has been fully visible for 500 ms, e.g. just after a screenshot hid it) is
 * made again.
 */
export async function toggleOverlay(panel: Frame, page: Page, on: boolean): Promise<void> {
  for (let i = 0; ; i++) {
    await panel.click('[data-test=overlay]')
    try {
      await page.waitForSelector('[data-ava-ui="observe-overlay"]', {
        state: on ? 'attached' : 'detached',
        timeout: 1_500,
      })
      return
    } catch (e) {
      if (i >= 5) throw e
      if ((await page.locator('[data-ava-ui="observe-overlay"]').count()) > 0 === on) return
    }
  }
}

export async function listedOnPage(
  panel: Frame,
  page: Page,
  selectors: string[] = [],
): Promise<{ listed: { id: string; at: string; text: string }[]; idOf: Record<string, string | undefined> }> {
  await toggleOverlay(panel, page, true)
  const read = await page.evaluate((selectors) => {
    const boxes = [...document.querySelectorAll('[data-ava-ui="observe-overlay"] > div')] as HTMLElement[]
    const all = [...document.querySelectorAll('body *')].filter((el) => !el.closest('[data-ava-ui]'))
    const near = (a: number, b: number) => Math.abs(a - b) < 1
    const drawnIn = (e: Element, [x, y, w, h]: number[]) => {
      const r = e.getBoundingClientRect()
      return near(r.left + scrollX, x) && near(r.top + scrollY, y) && near(r.width, w) && near(r.height, h)
    }
    const outlined = boxes.map((box) => {
      const at = ['left', 'top', 'width', 'height'].map((k) => parseFloat(box.style.getPropertyValue(k)))
      return { id: box.querySelector('span')?.textContent ?? '', at, el: all.filter((e) => drawnIn(e, at)).at(-1) }
    })
    const listed = outlined.map(({ id, el }) => ({
      id,
      at: el ? (typeof el.className === 'string' && el.className) || el.id : '',
      text: el?.textContent ?? '',
    }))
    // The outline drawn exactly on the element (its innermost child may share the box).
    const idOf = Object.fromEntries(
      selectors.map((s) => {
        const el = document.querySelector(s)
        return [s, el ? outlined.find((o) => drawnIn(el, o.at))?.id : undefined]
      }),
    )
    return { listed, idOf }
  }, selectors)
  await toggleOverlay(panel, page, false)
  return read
}
