// What an icon draws, read from the drawing (src/core/risk/glyphs.ts): icon-font code points and
// SVG path shapes of the common icon sets, and nothing for the harmless icons of the same sets.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { readGlyphs, readShapes, shapeHash } from '../../../src/core/risk/glyphs'
import { findRisks } from '../../../src/core/risk/decide'

const require = createRequire(import.meta.url)
const elementPlus = readFileSync(require.resolve('@element-plus/icons-vue/dist/index.js'), 'utf8')
/** The paths of an Element Plus icon, as its package draws them. */
const epPaths = (name: string) => {
  const at = elementPlus.indexOf(`name: "${name}"`)
  return [...elementPlus.slice(at, elementPlus.indexOf('_default = ', at)).matchAll(/\bd: "([^"]+)"/g)].map((m) => m[1])
}
const antPaths = (name: string): string[] => {
  const icon = require(`@ant-design/icons-svg/lib/asn/${name}.js`).default.icon
  const tree = typeof icon === 'function' ? icon('#333', '#e6e6e6') : icon
  const out: string[] = []
  const walk = (n: { tag: string; attrs?: { d?: string }; children?: unknown[] }): void => {
    if (n.tag === 'path' && n.attrs?.d) out.push(n.attrs.d)
    for (const c of n.children ?? []) walk(c as typeof n)
  }
  walk(tree)
  return out
}

describe('icons read by what they draw', () => {
  it('reads the trash cans and cards of Element Plus and Ant Design from their own packages', () => {
    expect(readShapes(epPaths('Delete'))).toBe('🗑')
    expect(readShapes(epPaths('CreditCard'))).toBe('💳')
    expect(readShapes(antPaths('DeleteOutlined'))).toBe('🗑')
    expect(readShapes(antPaths('RestTwoTone'))).toBe('🗑')
  })

  it('reads nothing into the harmless icons of the same sets (folder, save, archive box, lock)', () => {
    for (const name of ['Folder', 'FolderOpened', 'Box', 'Document', 'Lock', 'Edit', 'Star'])
      expect(readShapes(epPaths(name)), name).toBe('')
    for (const name of [
      'SaveOutlined',
      'InboxOutlined',
      'FolderOutlined',
      'LockOutlined',
      'LockTwoTone',
      'EditOutlined',
    ])
      expect(readShapes(antPaths(name)), name).toBe('')
  })

  it('a shape is the same whatever its spacing', () => {
    expect(shapeHash('M3 6h18')).toBe(shapeHash(' M 3,6 h 18 '))
    expect(readShapes(['M 19 6 v 14 c 0 1 -1 2 -2 2 H 7 c -1 0 -2 -1 -2 -2 V 6'])).toBe('🗑')
  })

  it('reads Font Awesome’s trash glyph as a trash can, and leaves unknown glyphs alone', () => {
    expect(readGlyphs('\uf1f8').trim()).toBe('🗑')
    expect(readGlyphs('\uf2ed').trim()).toBe('🗑')
    expect(readGlyphs('\ue001')).toBe('\ue001')
  })

  it('the drawn trash can is a destructive reading, whatever the class name says', () => {
    expect(findRisks({ name: `archive ${readShapes(epPaths('Delete'))}` }).map((f) => f.category)).toEqual([
      'destructive',
    ])
  })
})
