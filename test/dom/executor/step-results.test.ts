// @vitest-environment happy-dom
// a successful step says its result in the UI language (ExecSuccess.msg, a
// `step.result.*` key), beside the English detail the CLI, logs and the planner keep. The page's
// words in it are quoted data, and a secret is masked there exactly as in the detail.
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import type { Msg } from '../../../src/core/chat'
import type { ExecOutcome, ExecSuccess } from '../../../src/core/exec'
import { parsedTarget, type PageAction, type PageCommand } from '../../../src/core/page/command'
import { clearAgentIds } from '../../../src/dom/observe'
import { createReceiver } from '../../../src/dom/page/receiver'
import { setLocale, t, type MessageKey } from '../../../src/ui/i18n'

// A budget, not a wait: the step answers as soon as it can. Under load a short one ran out
// before the element was found ("on the page but not visible"), so it is 10 s, as the e2e polls are.
const act = (step: PageAction): PageCommand<'act'> => ({ kind: 'act', step, timeoutMs: 10_000 })
const byId = (id: string) => parsedTarget({ selectors: [`#${id}`] })

async function run(step: PageAction): Promise<ExecSuccess> {
  const out: ExecOutcome = await createReceiver()(act(step))
  if (!out.ok) throw new Error(`${step.action} failed: ${out.message}`)
  return out
}
const say = (m: Msg) => t(m.key as MessageKey, m.params ?? {})

beforeEach(() => {
  clearAgentIds()
  document.body.innerHTML = `
    <form onsubmit="return false">
      <label>Username <input id="user"></label>
      <label>Password <input id="pass" type="password"></label>
      <label><input id="keep" type="checkbox"> Keep me signed in</label>
      <label>Role <select id="role"><option>Viewer</option><option>Editor</option></select></label>
      <button id="go" type="button">Log in</button>
    </form>
    <p>Welcome, alice</p><h1>Dashboard</h1>`
})
afterAll(() => setLocale('en'))

describe('step results as keys', () => {
  it('typing says the value and the field, as the detail does', async () => {
    const out = await run({ action: 'fill', value: 'alice', target: byId('user') })
    expect(out.detail).toMatch(/^Typed "alice" into "Username"/) // happy-dom lays nothing out: "(forced …)" may follow
    expect(out.msg).toEqual({ key: 'step.result.typed', params: { value: '"alice"', label: '"Username"' } })
  })

  it('a password typed is masked in the message as in the detail', async () => {
    const out = await run({ action: 'fill', value: 'hunter2-secret', target: byId('pass') })
    expect(out.detail).toMatch(/^Typed "••••••••" into "Password"/)
    expect(out.msg!.params).toEqual({ value: '"••••••••"', label: '"Password"' })
    expect(JSON.stringify(out.msg)).not.toContain('hunter2')
  })

  it('a click, a check, a select and a verify each have their key', async () => {
    expect((await run({ action: 'click', target: byId('go') })).msg).toEqual({
      key: 'step.result.clicked',
      params: { label: '"Log in"' },
    })
    expect((await run({ action: 'check', target: byId('keep') })).msg).toEqual({
      key: 'step.result.checked',
      params: { label: '"Keep me signed in"' },
    })
    expect((await run({ action: 'check', target: byId('keep') })).msg?.key).toBe('step.result.wasChecked')
    const selected = await run({ action: 'select', value: 'Editor', target: byId('role') })
    expect(selected.msg).toEqual({ key: 'step.result.selected', params: { values: '"Editor"', label: '"Role"' } })
    const found = await run({ action: 'verify', assertion: 'shows "Welcome, alice" and "Dashboard"' })
    expect(found.detail).toBe('Found "Welcome, alice", "Dashboard" on the page')
    expect(found.msg).toEqual({ key: 'step.result.found', params: { texts: '"Welcome, alice", "Dashboard"' } })
  })

  it('said in Chinese, the page’s words kept as they are', async () => {
    await setLocale('zh-CN')
    expect(say((await run({ action: 'fill', value: 'alice', target: byId('user') })).msg!)).toBe(
      '已在 "Username" 中输入 "alice"',
    )
    expect(say((await run({ action: 'click', target: byId('go') })).msg!)).toBe('已点击 "Log in"')
    expect(say((await run({ action: 'verify', assertion: 'shows "Dashboard"' })).msg!)).toBe(
      '在页面上找到了 "Dashboard"',
    )
    await setLocale('en')
    expect(say((await run({ action: 'click', target: byId('go') })).msg!)).toBe('Clicked "Log in"')
  })
})
