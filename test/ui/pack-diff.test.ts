import { describe, expect, it } from 'vitest'
import { parsePack } from '../../src/core/registry'
import { diffPacks } from '../../src/core/registry/diff'

const pack = (version: string, actions: string, selectors = '') =>
  parsePack(`namespace: demo
version: ${version}
${selectors}actions:
${actions}`)

const open = `  dialog:open:
    description: Open the dialog
    steps:
      - action: click
        args: { selector: "css:#open" }
`
const close = `  dialog:close:
    description: Close the dialog
    steps:
      - action: click
        args: { selector: "css:#close" }
`
const closeChanged = close.replace('#close', '#dismiss')
const save = `  form:save:
    description: Save the form
    steps:
      - action: click
        args: { selector: "css:#save" }
`

describe('pack update diff', () => {
  it('a new pack lists every action as added', () => {
    expect(diffPacks(undefined, pack('1.0.0', open + close))).toEqual({
      namespace: 'demo',
      to: '1.0.0',
      kind: 'install',
      added: ['dialog:close', 'dialog:open'],
      removed: [],
      changed: [],
      selectorsChanged: false,
    })
  })

  it('an upgrade shows added, removed and changed actions', () => {
    const d = diffPacks(pack('1.0.0', open + close), pack('1.1.0', closeChanged + save))
    expect(d).toMatchObject({
      from: '1.0.0',
      to: '1.1.0',
      kind: 'upgrade',
      added: ['form:save'],
      removed: ['dialog:open'],
      changed: ['dialog:close'],
    })
  })

  it('a lower version is a downgrade, compared as semver and not as text', () => {
    expect(diffPacks(pack('1.10.0', open), pack('1.9.0', open)).kind).toBe('downgrade')
    expect(diffPacks(pack('1.9.0', open), pack('1.10.0', open)).kind).toBe('upgrade')
    expect(diffPacks(pack('2.0.0', open), pack('2.0.0-beta.1', open)).kind).toBe('downgrade')
  })

  it('the same version with other content is flagged; identical content is a reinstall', () => {
    expect(diffPacks(pack('1.0.0', open), pack('1.0.0', closeChanged)).kind).toBe('same-version')
    expect(diffPacks(pack('1.0.0', open), pack('1.0.0', open)).kind).toBe('reinstall')
  })

  it('key order does not count as a change; a changed selector alias does', () => {
    const reordered = `  dialog:open:
    steps:
      - args: { selector: "css:#open" }
        action: click
    description: Open the dialog
`
    expect(diffPacks(pack('1.0.0', open), pack('1.0.1', reordered)).changed).toEqual([])
    const d = diffPacks(
      pack('1.0.0', open, 'selectors:\n  btn: "css:#a"\n'),
      pack('1.0.1', open, 'selectors:\n  btn: "css:#b"\n'),
    )
    expect(d).toMatchObject({ changed: [], selectorsChanged: true })
  })
})
