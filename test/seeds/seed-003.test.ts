// @vitest-environment happy-dom
import { fieldsOf } from '../../src/core/vocabulary'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { createPinia, setActivePinia } from 'pinia'
import type { ChatMessage, RunEvent } from '../../src/core/chat'
import { fake } from '../storage/fake-browser'

// Seed 003 (../shared/seeds/003_cbd3af054a4270d0.txt), 正确性属性列表, properties 1, 3 and 9 as
// fast-check properties over the code that does the job: the launcher's button, the background's
// conversation storage read back by the panel's store, and the instruction → PageAction mapping.
// (Properties 2, 4, 5, 7 are in test/content/gesture.test.ts, test/ui and test/dom.)

/** Runs and time per property: enough cases to find an edge, and it passes on a loaded 2-core machine. */
const kRuns = { numRuns: 60 }
const kTimeoutMs = 30_000

// The background's conversation module runs for real on the fake chrome.storage; only what
// reaches another context (the panel port, the tab registry) is replaced, and the panel's `send`
// goes to the background's own chat.load code path (src/background/handlers/chat.ts).
const toPanel: Array<{ e: RunEvent; seq: number }> = []
vi.mock('webextension-polyfill', () => ({ default: fake.browser }))
vi.mock('../../src/background/tabs', () => ({ currentDoc: () => undefined }))
vi.mock('../../src/background/panels', () => ({
  emitToPanels: (_tab: number, e: RunEvent, seq: number) => void toPanel.push({ e, seq }),
}))
const kOrigin = 'https://shop.example'
vi.mock('../../src/messaging', () => ({
  send: async (name: string) => {
    if (name !== 'panel→bg:chat.load') throw new Error(`unexpected ${name}`)
    const { readHistory } = await import('../../src/background/conversation')
    const h = await readHistory(kOrigin)
    return { messages: h.messages, run: null, seq: h.seq, origin: kOrigin }
  },
}))

const { updateHistory, clearHistory } = await import('../../src/background/conversation')
const { historyStore } = await import('../../src/storage/conversation')
const { useChatStore } = await import('../../src/panel/store')
const { createLauncher } = await import('../../src/content/launcher')
const { actionOf } = await import('../../src/core/page/command')
const { InstructionSchema } = await import('../../src/core/instruction/schema')

describe('property 1: a click on the button toggles the panel (需求 1.1)', () => {
  // The launcher's shadow root is closed to the page; the test keeps a handle on it as it is made.
  let roots: ShadowRoot[] = []
  const attach = Element.prototype.attachShadow
  beforeEach(() => {
    roots = []
    vi.spyOn(Element.prototype, 'attachShadow').mockImplementation(function (this: Element, init: ShadowRootInit) {
      const root = attach.call(this, init)
      roots.push(root)
      return root
    })
    // happy-dom loads no frame pages and says so on every frame; the address is all the launcher sets.
    vi.spyOn(HTMLIFrameElement.prototype, 'src', 'set').mockImplementation(function (
      this: HTMLIFrameElement,
      url: string,
    ) {
      this.dataset.src = url
    })
  })
  afterEach(() => {
    vi.restoreAllMocks()
    document.documentElement.querySelectorAll('ava-root').forEach((n) => n.remove())
  })

  it(
    'for any state the launcher is in, a click (not a drag) makes it the opposite, and the frame and aria-expanded follow',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom('pointer', 'keyboard'), { maxLength: 6 }),
          fc.constantFrom('pointer', 'keyboard'),
          fc.integer({ min: 0, max: 3 }),
          async (before, click, jitterPx) => {
            roots = []
            const toggles: boolean[] = []
            const launcher = createLauncher({
              panelUrl: 'chrome-extension://ava/panel.html',
              getToken: async () => 'token',
              onToggle: (open) => void toggles.push(open),
              confirmLive: async () => true,
              onFocusTaken: () => undefined,
              onBlocked: () => undefined,
            })
            const root = roots.at(-1)!
            const button = root.querySelector('button')!
            const press = async (how: string) => {
              if (how === 'keyboard') button.dispatchEvent(new MouseEvent('click', { detail: 0, bubbles: true }))
              else {
                // A person's click: down and up within the tremor distance, at once.
                button.dispatchEvent(
                  new PointerEvent('pointerdown', { button: 0, clientX: 100, clientY: 100, bubbles: true }),
                )
                button.dispatchEvent(
                  new PointerEvent('pointerup', { button: 0, clientX: 100 + jitterPx, clientY: 100, bubbles: true }),
                )
              }
              await new Promise((r) => setTimeout(r, 0)) // the frame is added once its token is back
            }
            for (const how of before) await press(how)
            const was = launcher.isOpen
            expect(was).toBe(before.length % 2 === 1)
            await press(click)
            expect(launcher.isOpen).toBe(!was)
            expect(button.getAttribute('aria-expanded')).toBe(String(!was))
            expect(toggles.at(-1)).toBe(!was)
            const frame = root.querySelector('iframe')
            expect(frame ? !frame.hidden : false).toBe(!was)
            if (frame) expect(frame.dataset.src).toBe('chrome-extension://ava/panel.html#token')
            root.host.remove()
          },
        ),
        kRuns,
      )
    },
    kTimeoutMs,
  )
})

describe('property 3: history survives closing and reopening the panel (需求 1.5)', () => {
  beforeEach(() => {
    fake.reset()
    setActivePinia(createPinia())
  })

  const message = fc.record({
    role: fc.constantFrom('user', 'assistant') as fc.Arbitrary<ChatMessage['role']>,
    text: fc.string({ maxLength: 40 }),
    ts: fc.integer({ min: 1, max: 2_000_000_000_000 }),
  })

  it(
    'for any messages, the panel opened again shows exactly what it showed before it closed, as stored',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(message, { maxLength: 20 }),
          fc.integer({ min: 0, max: 20 }),
          async (list, openAfter) => {
            await clearHistory(kOrigin)
            toPanel.length = 0
            setActivePinia(createPinia())
            const before = useChatStore()
            // The panel opens somewhere in the conversation and then follows it live.
            const written = list.map((m, i) => ({ ...m, id: `m${i}` }))
            for (const [i, m] of written.entries()) {
              if (i === Math.min(openAfter, written.length)) await before.load()
              await updateHistory(
                kOrigin,
                1,
                (h) => void h.messages.push(structuredClone(m)),
                () => ({ type: 'message', message: structuredClone(m) }),
              )
            }
            if (openAfter >= written.length) await before.load()
            for (const { e, seq } of toPanel) before.apply(e, seq)
            const shown = JSON.parse(JSON.stringify(before.messages)) as ChatMessage[]
            expect(shown).toEqual(written)

            // Closing drops the panel's document and its store; reopening starts a fresh one.
            setActivePinia(createPinia())
            const after = useChatStore()
            expect(after.messages).toEqual([])
            await after.load()
            expect(after.messages).toEqual(shown)
            // And it is what chrome.storage holds, so a restarted service worker shows it too.
            expect((await historyStore(kOrigin).get()).messages).toEqual(shown)
          },
        ),
        { numRuns: 50 },
      )
    },
    kTimeoutMs,
  )
})

describe('property 9: a click or scroll instruction maps to a complete command (需求 8.3, 8.4)', () => {
  const text = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== '')
  const locator = fc.record(
    {
      target_id: fc.integer({ min: 1, max: 500 }).map(String),
      semantic_locator: text,
      fallback_selector: fc.constantFrom(
        'css:#save',
        '#save',
        'role:button[name="Save"]',
        'text:保存',
        'testid:save',
        '//button[1]',
      ),
    },
    { requiredKeys: [] },
  )
  const instruction = fc.oneof(
    fc.record({ action_type: fc.constant('click'), params: locator }),
    fc.record({
      action_type: fc.constant('scroll'),
      params: fc
        .tuple(locator, fc.option(fc.constantFrom('up', 'down', 'top', 'bottom'), { nil: undefined }))
        .map(([l, direction]) => (direction ? { ...l, direction } : l)),
    }),
  )

  it(
    'every valid one becomes a PageAction of its type that names the element the instruction named',
    () => {
      fc.assert(
        fc.property(fc.nat({ max: 99 }), instruction, (stepId, raw) => {
          const parsed = InstructionSchema.safeParse({ step_id: stepId, ...raw })
          fc.pre(parsed.success) // the schema decides what "valid" is (a click needs a locator)
          if (!parsed.success) return
          const ins = parsed.data
          const cmd = actionOf(ins)
          expect(cmd).not.toBeNull()
          expect(cmd!.action).toBe(ins.action_type)
          const p = ins.params
          // "selector": what the page's locator ladder will try, in the instruction's own words.
          if (p.target_id || p.semantic_locator || p.fallback_selector) {
            expect(fieldsOf(cmd!).target?.targetId).toBe(p.target_id)
            expect(fieldsOf(cmd!).target?.semantic).toBe(p.semantic_locator)
            if (p.fallback_selector)
              expect(fieldsOf(cmd!).target?.selectors?.map((s) => s.raw)).toEqual([p.fallback_selector])
          } else {
            // A scroll with only a direction scrolls the page itself.
            expect(ins.action_type).toBe('scroll')
            expect(fieldsOf(cmd!).target).toBeUndefined()
          }
          if (ins.action_type === 'scroll') expect(fieldsOf(cmd!).direction).toBe(p.direction)
          // "waitAfter": settling after the action is the executor's, not a field the model may
          // leave out; the mapping adds nothing the receiver would have to guess.
          expect(Object.keys(cmd!).every((k) => ['action', 'target', 'direction'].includes(k))).toBe(true)
        }),
        { numRuns: 100 },
      )
    },
    kTimeoutMs,
  )
})
