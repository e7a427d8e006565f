import type { RawEvent, RecordedTarget } from '../../src/core/flows'

/** A recorded target as the page recorder describes one; `key` identifies the element. */
export function target(key: string, role: string, name: string, extra: Partial<RecordedTarget> = {}): RecordedTarget {
  return {
    key,
    description: name,
    selectors: {
      primary: { type: 'role', value: `role:${role}[name="${name}"]` },
      fallback: [{ type: 'css', value: `css:#${key}` }],
    },
    snapshot: { tag: role === 'textbox' ? 'input' : 'button', role, text: name, attributes: {} },
    ...extra,
  }
}

const user = target('user', 'textbox', 'User name', { field: { type: 'text', name: 'user', label: 'User name' } })
const pass = target('pass', 'textbox', 'Password', { field: { type: 'password', name: 'password', label: 'Password' } })
const save = target('save', 'button', 'Save')

let t = 0
const at = () => (t += 100)

/** What the recorder emits while a person types a user name and a password and clicks Save. */
export function loginEvents(): RawEvent[] {
  t = 0
  const url = 'https://app.test/login'
  return [
    { kind: 'load', t: at(), url },
    { kind: 'click', t: at(), url, target: user, role: 'field' },
    ...['a', 'al', 'ali', 'alic', 'alice'].map((value) => ({
      kind: 'input' as const,
      t: at(),
      url,
      target: user,
      value,
      secret: false,
    })),
    { kind: 'key', t: at(), url, key: 'Tab', inField: true },
    { kind: 'input', t: at(), url, target: pass, secret: true },
    { kind: 'input', t: at(), url, target: pass, secret: true },
    { kind: 'key', t: at(), url, key: 'Backspace', inField: true, target: pass },
    { kind: 'scroll', t: at(), url, direction: 'down', grew: false },
    { kind: 'click', t: at(), url, target: save, role: 'other' },
    { kind: 'navigate', t: at(), url: 'https://app.test/home', cause: 'link' },
    { kind: 'load', t: at(), url: 'https://app.test/home' },
  ]
}
