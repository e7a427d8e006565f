// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { createPinia, setActivePinia } from 'pinia'

// The store's only boundary is the typed messenger; record what it would send to the background.
const sent: { name: string; req: unknown }[] = []
vi.mock('../../src/messaging', () => ({
  send: async (name: string, req: unknown) => {
    sent.push({ name, req })
    if (name === 'panel→bg:chat.load') return { messages: [], run: null, seq: 0 }
    return { runId: 'run_1' }
  },
}))

const { useChatStore } = await import('../../src/panel/store')
const { isSlash } = await import('../../src/core/slash')

beforeEach(() => {
  setActivePinia(createPinia())
  sent.length = 0
})

const whitespace = fc
  .array(fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u3000', '\u2003'), { maxLength: 20 })
  .map((a) => a.join(''))

describe('the panel refuses empty requests', () => {
  it('never sends a whitespace-only string and leaves the messages unchanged', async () => {
    const chat = useChatStore()
    await chat.load()
    await fc.assert(
      fc.asyncProperty(whitespace, async (text) => {
        const before = chat.messages.length
        expect(await chat.sendText(text)).toBe(false)
        expect(chat.messages.length).toBe(before)
      }),
    )
    expect(sent.filter((s) => s.name === 'panel→bg:run.start')).toEqual([])
  })

  it('sends any request with a visible character, trimmed', async () => {
    const chat = useChatStore()
    await fc.assert(
      fc.asyncProperty(
        whitespace,
        fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== ''),
        whitespace,
        async (a, body, b) => {
          sent.length = 0
          const text = a + body + b
          expect(await chat.sendText(text)).toBe(true)
          // A leading /word is a slash command (/run, /actions …); anything else starts a run.
          const name = isSlash(text) ? 'panel→bg:slash' : 'panel→bg:run.start'
          expect(sent).toEqual([{ name, req: { text: text.trim() } }])
        },
      ),
    )
  })

  it('sends slash commands to the command handler, never to the planner', async () => {
    const chat = useChatStore()
    for (const text of ['/actions', '  /run common:auth:login --username a  ', '/dry-run x']) {
      sent.length = 0
      expect(await chat.sendText(text)).toBe(true)
      expect(sent).toEqual([{ name: 'panel→bg:slash', req: { text: text.trim() } }])
    }
  })
})

describe('live events', () => {
  it('drops events already in the loaded snapshot and applies later ones once', async () => {
    const chat = useChatStore()
    const msg = { id: 'm1', role: 'assistant' as const, text: '', ts: 1, steps: [] }
    chat.apply({ type: 'message', message: msg }, 1) // arrives while the snapshot loads (seq 0)
    await chat.load()
    chat.apply({ type: 'text', messageId: 'm1', delta: 'Hi' }, 2)
    chat.apply({ type: 'text', messageId: 'm1', delta: 'Hi' }, 2) // a duplicate delivery
    chat.apply({ type: 'text', messageId: 'm1', delta: '!' }, 3)
    expect(chat.messages).toEqual([{ ...msg, text: 'Hi!' }])
  })
})
