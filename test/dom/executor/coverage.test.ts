// Meta-test (STYLE.md "every DOM action is registered and has a test"): each executor action
// name appears as a command or instruction in the real-browser tests.
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, test } from 'vitest'
import { kDomActionNames } from '../../../src/dom/executor'

const dir = resolve(import.meta.dirname, '../../../e2e/executor')
const text = readdirSync(dir)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => readFileSync(resolve(dir, f), 'utf8'))
  .join('\n')

/** Instruction types that reach each DOM action. */
const kViaInstruction: Record<string, string> = { fill: 'input', navigate: 'navigate' }

test.each([...kDomActionNames])('%s has an e2e test', (name) => {
  const direct = text.includes(`action: '${name}'`)
  const viaInstruction = text.includes(`action_type: '${kViaInstruction[name] ?? name}'`)
  const viaPort =
    name === 'getText' || name === 'getAttribute'
      ? /getText|getAttribute|table:row-action|select:choose/.test(text)
      : false
  expect(direct || viaInstruction || viaPort, `${name} is never exercised in e2e/executor`).toBe(true)
})
