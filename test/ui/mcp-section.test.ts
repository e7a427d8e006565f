// @vitest-environment happy-dom
// The options page's MCP section says a failure of the background as a person reads it: the
// code's sentence in the UI language — never "[object Object]".
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createApp, nextTick } from 'vue'
import { createPinia } from 'pinia'
import en from '../../src/core/locales/en'
import zh from '../../src/core/locales/zh-CN'
import { i18n, setLocale } from '../../src/ui/i18n'

// The background's refusal, as the channel hands it to the page: a coded error (src/messaging).
vi.mock('../../src/messaging', () => ({
  send: vi.fn(async () => {
    throw Object.assign(new Error('QUOTA_BYTES quota exceeded'), { code: 'QUOTA_EXCEEDED' })
  }),
}))

const McpSection = (await import('../../src/options/components/McpSection.vue')).default

async function shown(): Promise<{ text: string; all: string }> {
  const root = document.createElement('div')
  document.body.append(root)
  const app = createApp(McpSection).use(createPinia()).use(i18n)
  app.mount(root)
  await vi.waitFor(() => expect(root.querySelector('[role=alert]')).not.toBeNull())
  await nextTick()
  const out = {
    text: root.querySelector('[role=alert]')?.textContent?.trim() ?? '',
    all: root.textContent ?? '',
  }
  app.unmount()
  root.remove()
  return out
}

describe('the MCP section, when the background fails', () => {
  afterAll(() => setLocale('en'))

  it('says the failure’s sentence in English', async () => {
    await setLocale('en')
    const out = await shown()
    expect(out.text).toBe(en['failure.QUOTA_EXCEEDED'])
    expect(out.all).not.toContain('[object Object]')
  })

  it('says it in Chinese in the Chinese UI', async () => {
    await setLocale('zh-CN')
    const out = await shown()
    expect(out.text).toBe(zh['failure.QUOTA_EXCEEDED'])
    expect(out.all).not.toContain('[object Object]')
  })
})
