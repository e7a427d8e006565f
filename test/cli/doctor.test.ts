import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, test } from 'vitest'
import { checkNode, formatChecks, kMinNode } from '../../src/cli/doctor'

test("the Node doctor asks for is package.json's engines", () => {
  const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
    engines: { node: string }
  }
  expect(pkg.engines.node).toBe(`>=${kMinNode.replace(/\.0$/, '')}`)
  expect(checkNode('20.19.0').status).toBe('ok')
  expect(checkNode('22.1.0').status).toBe('ok')
  expect(checkNode('20.18.3')).toMatchObject({ status: 'fail', fix: expect.stringContaining('20.19.0') })
})

test('a failed check is printed with what to do and where to read more', () => {
  expect(
    formatChecks([
      { name: 'Chromium', status: 'fail', found: 'no Chromium at /x', fix: 'install it', docs: 'no-chromium' },
      { name: 'Node', status: 'ok', found: 'Node 22.0.0' },
    ]),
  ).toEqual([
    'FAIL  Chromium  no Chromium at /x',
    '                fix: install it',
    '                see: docs/troubleshooting.md#no-chromium',
    'ok    Node      Node 22.0.0',
  ])
})
