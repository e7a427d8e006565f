// Fails when README.md, SKILL.md or a page of docs/ links to a file or an #anchor that is not there.
// The package ships README.md, SKILL.md and docs/ whole, so a relative link must resolve to one of
// those (a reader of the installed package has no src/ to open), and an anchor must name a heading
// of the page it points into, slugged as GitHub slugs headings. A file of the repository a page
// names in code (`src/core/failure.ts`) must exist, so a page never cites one that is gone.
// Addresses (https:, mailto:) are not fetched: the check runs offline. marked's lexer finds the links, so code spans and fenced
// blocks are skipped as a Markdown reader skips them.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { Lexer } from 'marked'

const root = resolve(import.meta.dirname, '..')

/** What the package ships for a reader to open: the checked pages, and what docs/ holds. */
const shipped = (path) => {
  const rel = relative(root, path).split(sep).join('/')
  return rel === 'README.md' || rel === 'SKILL.md' || rel === 'docs' || rel.startsWith('docs/')
}

const pages = [
  'README.md',
  'SKILL.md',
  ...readdirSync(join(root, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .map((n) => `docs/${n}`),
]
  .map((p) => join(root, p))
  .filter((p) => existsSync(p))

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function slugger() {
  const seen = new Map()
  return (text) => {
    const base = text
      .toLowerCase()
      .trim()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    return n === 0 ? base : `${base}-${n}`
  }
}

/** Walks marked's tokens, yielding every link and image, and the headings' plain text. */
function* walk(tokens) {
  for (const t of tokens) {
    yield t
    if (t.tokens) yield* walk(t.tokens)
    if (t.type === 'list') for (const item of t.items) yield* walk(item.tokens)
    if (t.type === 'table') for (const cell of [...t.header, ...t.rows.flat()]) yield* walk(cell.tokens)
  }
}

const plainText = (tokens) =>
  tokens.map((t) => (t.tokens ? plainText(t.tokens) : t.type === 'codespan' ? t.text : (t.text ?? ''))).join('')

const parsed = new Map()
function page(path) {
  if (!parsed.has(path)) {
    const tokens = Lexer.lex(readFileSync(path, 'utf8'))
    const slug = slugger()
    const anchors = new Set()
    const links = []
    const files = []
    for (const t of walk(tokens)) {
      // A repository path in code: src/…, e2e/…, test/…, scripts/…, bench/…, actions/… (not a pattern).
      if (t.type === 'codespan' && /^(?:src|e2e|test|scripts|bench|actions)\/[\w./-]+$/.test(t.text)) files.push(t.text)
      if (t.type === 'heading') anchors.add(slug(plainText(t.tokens)))
      if ((t.type === 'link' || t.type === 'image') && t.href) links.push(t.href)
      if (t.type === 'html') for (const m of t.raw.matchAll(/\b(?:id|name)="([^"]+)"/g)) anchors.add(m[1])
    }
    parsed.set(path, { anchors, links, files })
  }
  return parsed.get(path)
}

const problems = []
for (const path of pages) {
  const from = relative(root, path)
  for (const file of page(path).files)
    if (!existsSync(join(root, file.replace(/:\d+.*$/, ''))))
      problems.push(`${from}: \`${file}\`: no such file in the repository`)
  for (const href of page(path).links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue // an address, not a file
    const [file, anchor] = href.split('#')
    const target = file ? resolve(dirname(path), decodeURIComponent(file)) : path
    if (!existsSync(target)) {
      problems.push(`${from}: ${href}: no such file`)
      continue
    }
    if (!shipped(target)) {
      problems.push(
        `${from}: ${href}: ${relative(root, target)} is not in the package (it ships README.md, SKILL.md and docs/): link by address instead`,
      )
      continue
    }
    if (
      anchor &&
      (!target.endsWith('.md') ||
        statSync(target).isDirectory() ||
        !page(target).anchors.has(decodeURIComponent(anchor)))
    ) {
      problems.push(`${from}: ${href}: no heading "#${anchor}" in ${relative(root, target)}`)
    }
  }
}

if (problems.length) {
  for (const p of problems) console.error(p)
  console.error(`check-links: ${problems.length} broken link${problems.length === 1 ? '' : 's'}`)
  process.exit(1)
}
console.log(`check-links: ${pages.length} pages, every relative link and anchor resolves`)
