// Writes src/core/risk/icon-shapes.ts: the path shapes of the icons that draw a risky meaning (a
// trash can, a credit card, a wallet, an open lock, a paper plane) in the icon sets pages use, as
// hashes of their normalised `d`, so a page's inline SVG or SVG image is read by what it draws
// (docs/security.md, "Judged as drawn"). Element Plus's and Ant Design's icons are read from their
// packages in node_modules; the other sets' shapes are their published path data. Run when a set
// is added: `npx tsx scripts/icon-shapes.ts`; the output is committed.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { shapeHash } from '../src/core/risk/glyphs'

const require = createRequire(import.meta.url)
const out = new Map<string, [string, string]>() // hash → [meaning, source]
const add = (d: string, meaning: string, source: string) => out.set(shapeHash(d), [meaning, source])

// Element Plus: the compiled components hold each icon's paths after its `name: "…"`.
const ep = readFileSync(require.resolve('@element-plus/icons-vue/dist/index.js'), 'utf8')
const epIcons = {
  Delete: 'destructive',
  DeleteFilled: 'destructive',
  CreditCard: 'payment',
  Wallet: 'payment',
  WalletFilled: 'payment',
  Money: 'payment',
  Unlock: 'permission',
  Promotion: 'data_send',
}
for (const [name, meaning] of Object.entries(epIcons)) {
  const at = ep.indexOf(`name: "${name}"`)
  if (at < 0) throw new Error(`Element Plus has no icon ${name}`)
  const body = ep.slice(at, ep.indexOf('_default = ', at))
  for (const m of body.matchAll(/\bd: "([^"]+)"/g)) add(m[1], meaning, `element-plus ${name}`)
}

// Ant Design: one module per icon, its tree of tags and attributes.
const antIcons = {
  DeleteOutlined: 'destructive',
  DeleteFilled: 'destructive',
  DeleteTwoTone: 'destructive',
  RestOutlined: 'destructive',
  RestFilled: 'destructive',
  RestTwoTone: 'destructive',
  CreditCardOutlined: 'payment',
  CreditCardFilled: 'payment',
  CreditCardTwoTone: 'payment',
  WalletOutlined: 'payment',
  WalletFilled: 'payment',
  WalletTwoTone: 'payment',
  UnlockOutlined: 'permission',
  UnlockFilled: 'permission',
  UnlockTwoTone: 'permission',
  SendOutlined: 'data_send',
}
for (const [name, meaning] of Object.entries(antIcons)) {
  const mod = require(`@ant-design/icons-svg/lib/asn/${name}.js`).default
  const icon = typeof mod.icon === 'function' ? mod.icon('#333', '#e6e6e6') : mod.icon
  const walk = (n: { tag: string; attrs?: { d?: string }; children?: unknown[] }): void => {
    if (n.tag === 'path' && n.attrs?.d) add(n.attrs.d, meaning, `ant-design ${name}`)
    for (const c of n.children ?? []) walk(c as typeof n)
  }
  walk(icon)
}

// A path another icon of the same set draws too (a lock's body in Lock and Unlock) says nothing.
const shared = new Set<string>()
for (const m of ep.matchAll(/name: "(\w+)"([\s\S]*?)_default = /g)) {
  if (epIcons[m[1] as keyof typeof epIcons]) continue
  for (const p of m[2].matchAll(/\bd: "([^"]+)"/g)) shared.add(shapeHash(p[1]))
}
const antDir = resolve(require.resolve('@ant-design/icons-svg/lib/asn/DeleteOutlined.js'), '..')
for (const f of readdirSync(antDir).filter((f) => f.endsWith('.js'))) {
  const name = f.replace(/\.js$/, '')
  if (antIcons[name as keyof typeof antIcons]) continue
  const mod = require(`${antDir}/${f}`).default
  const icon = typeof mod.icon === 'function' ? mod.icon('#333', '#e6e6e6') : mod.icon
  const walk = (n: { tag: string; attrs?: { d?: string }; children?: unknown[] }): void => {
    if (n.tag === 'path' && n.attrs?.d) shared.add(shapeHash(n.attrs.d))
    for (const c of n.children ?? []) walk(c as typeof n)
  }
  walk(icon)
}
for (const h of shared) out.delete(h)

// Published path data of the other common sets: the trash can's distinctive paths.
const published = [
  ['M19 6v14c0 1-1 2-2 2H7c-1 0-2-1-2-2V6', 'lucide trash, trash-2'],
  ['M8 6V4c0-1 1-2 2-2h4c1 0 2 1 2 2v2', 'lucide trash, trash-2'],
  ['M19 6v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6m3 0V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2', 'feather trash, trash-2'],
  ['M6 19c0 1.1.9 2 2 2h8c1.1 0 2-.9 2-2V7H6v12zM19 4h-3.5l-1-1h-5l-1 1H5v2h14V4z', 'material delete'],
  [
    'm14.74 9-.346 9m-4.788 0L9.26 9m9.968-3.21c.342.052.682.107 1.022.166m-1.022-.165L18.16 19.673a2.25 2.25 0 0 1-2.244 2.077H8.084a2.25 2.25 0 0 1-2.244-2.077L4.772 5.79m14.456 0a48.108 48.108 0 0 0-3.478-.397m-12 .562c.34-.059.68-.114 1.022-.165m0 0a48.11 48.11 0 0 1 3.478-.397m7.5 0v-.916c0-1.18-.91-2.164-2.09-2.201a51.964 51.964 0 0 0-3.32 0c-1.18.037-2.09 1.022-2.09 2.201v.916m7.5 0a48.667 48.667 0 0 0-7.5 0',
    'heroicons trash (outline)',
  ],
  [
    'M14.5 3a1 1 0 0 1-1 1H13v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V4h-.5a1 1 0 0 1-1-1V2a1 1 0 0 1 1-1H6a1 1 0 0 1 1-1h2a1 1 0 0 1 1 1h3.5a1 1 0 0 1 1 1v1zM4.118 4L4 4.059V13a1 1 0 0 0 1 1h6a1 1 0 0 0 1-1V4.059L11.882 4H4.118zM2.5 3V2h11v1h-11z',
    'bootstrap-icons trash',
  ],
]
for (const [d, source] of published) add(d, 'destructive', source)

const lines = [...out]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([h, [meaning, source]]) => `  '${h}': '${meaning}', // ${source}`)
const file = `// Generated by scripts/icon-shapes.ts from the icon sets named beside each shape; do not edit.
/** Icon shapes by \`shapeHash\` of a path's \`d\`: the risky meaning the icon draws. */
export const kIconShapes: Readonly<Record<string, 'destructive' | 'payment' | 'permission' | 'data_send'>> = {
${lines.join('\n')}
}
`
writeFileSync(resolve(import.meta.dirname, '../src/core/risk/icon-shapes.ts'), file)
console.log(`${out.size} shapes`)
