// @vitest-environment happy-dom
// Issue 16 §2: the page's receiver types a saved secret only into a field of a document on a site
// the secret is bound to, and remembers the field so its value is never listed.
import { beforeEach, describe, expect, it } from 'vitest'
import type { PageCommand } from '../../src/core/page/command'
import { serialize } from '../../src/core/page/serialize'
import { clearAgentIds, observe } from '../../src/dom/observe'
import { createReceiver } from '../../src/dom/page/receiver'

const kValue = 'SECRET-58213'

const fill = (secretSites?: string[]): PageCommand<'act'> => ({ kind: 'act', step: { action: 'fill', value: kValue, target: { focused: true } }, timeoutMs: 500, ...(secretSites ? { secretSites } : {}) })

/** A field nothing marks as secret (no password type, autocomplete, name or id that says so). */
function field(): HTMLInputElement {
  document.body.innerHTML = '<label>Verification <input id="box"></label>'
  const input = document.getElementById('box') as HTMLInputElement
  input.focus()
  return input
}

describe('receiver: secrets only on their sites', () => {
  beforeEach(() => clearAgentIds())

  it('refuses a secret bound to another site, typing nothing', async () => {
    const input = field()
    const out = await createReceiver()(fill(['https://bank.example']))
    expect(out).toMatchObject({ ok: false, code: 'BLOCKED' })
    expect(input.value).toBe('')
  })

  it('types it on its own site, and the field is listed without its value from then on', async () => {
    const input = field()
    const out = await createReceiver()(fill([location.origin]))
    expect(out).toMatchObject({ ok: true, sensitive: true })
    expect(input.value).toBe(kValue)
    expect(JSON.stringify(out)).not.toContain(kValue)
    expect(serialize(observe({ root: document, includeContent: false }), { budgetTokens: Infinity }).text).not.toContain(kValue)
  })

  it('a plain value in a plain field stays listed (the control)', async () => {
    const input = field()
    const out = await createReceiver()(fill())
    expect(out).toMatchObject({ ok: true })
    expect(input.value).toBe(kValue)
    expect(serialize(observe({ root: document, includeContent: false }), { budgetTokens: Infinity }).text).toContain(kValue)
  })
})
