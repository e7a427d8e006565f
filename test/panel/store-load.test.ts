// The panel's chat store (src/panel/store.ts): a snapshot loaded on reconnect must not
// overwrite events that arrived while it was on its way.
import { beforeEach, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'

let answer: (r: unknown) => void
vi.mock('../../src/messaging', () => ({ send: () => new Promise((r) => (answer = r)) }))
const { useChatStore } = await import('../../src/panel/store')

const msg = (text: string) => ({ id: 'm1', role: 'assistant' as const, text, ts: 1 })

beforeEach(() => setActivePinia(createPinia()))

it('keeps text that arrived while a reconnect snapshot was loading', async () => {
  const chat = useChatStore()
  let loading = chat.load()
  answer({ messages: [msg('Hello')], run: null, seq: 5, origin: 'https://a.example' })
  await loading
  loading = chat.load() // the port reconnected
  // The snapshot was taken at seq 6; the text of seq 7 arrives before it does.
  chat.apply({ type: 'text', messageId: 'm1', delta: ', world' }, 7)
  answer({ messages: [msg('Hello, wor')], run: null, seq: 6, origin: 'https://a.example' })
  await loading
  expect(chat.messages[0].text).toBe('Hello, wor, world')
  chat.apply({ type: 'text', messageId: 'm1', delta: '!' }, 8)
  expect(chat.messages[0].text).toBe('Hello, wor, world!')
})

it('applies events held during a load that failed, on the chat it had', async () => {
  const chat = useChatStore()
  let loading = chat.load()
  answer({ messages: [msg('Hi')], run: null, seq: 1, origin: 'https://a.example' })
  await loading
  loading = chat.load()
  chat.apply({ type: 'text', messageId: 'm1', delta: ' there' }, 2)
  answer(Promise.reject(new Error('worker gone')))
  await loading
  // Said in the person's language, never the runtime's own words.
  expect(chat.error).toBe('Ava’s background did not answer. Retry.')
  expect(chat.messages[0].text).toBe('Hi there')
})
