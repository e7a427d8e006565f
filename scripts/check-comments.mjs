// Fails when a comment cites a document a reader of this repo does not have: an issue or task
// number, a design seed, or a bare section sign that names no public standard (HTML, an RFC,
// WAI-ARIA and accname keep theirs). A comment says what it means, or points into docs/.
// test/seeds/ is exempt: those tests check conformance to the design documents by section.
import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const kCode = /\.(ts|mts|cts|mjs|cjs|js|vue)$/
const kExempt = /^test\/seeds\//
const kCitation = /\b(?:issues?|seeds?|tasks?)\s?#?\d+/i
/** A section sign is fine after the standard it belongs to. */
const kPublicSection = /(?:HTML|RFC \d+|WAI-ARIA|accname [\d.]+|ECMA-?\d*)\s*§/

/** The comment text of one line: a whole-line comment, a block's inner line, or a trailing `//`. */
function commentOf(line, inBlock) {
  const t = line.trimStart()
  if (inBlock || t.startsWith('//') || t.startsWith('/*') || t.startsWith('*') || t.startsWith('<!--')) return line
  const at = line.indexOf('//')
  if (at < 0) return ''
  const before = line.slice(0, at)
  // A `//` inside a string or a URL is not a comment.
  if (/['"`]/.test(before.replace(/'[^']*'|"[^"]*"|`[^`]*`/g, '')) || /:$/.test(before)) return ''
  return line.slice(at)
}

/** The lines of `text` whose comments cite an issue, a task or a seed: `line: comment`. */
export function citingLines(text) {
  const found = []
  let inBlock = false
  text.split('\n').forEach((line, i) => {
    const comment = commentOf(line, inBlock)
    if (comment && (kCitation.test(comment) || (comment.includes('§') && !kPublicSection.test(comment))))
      found.push(`${i + 1}: ${comment.trim().slice(0, 100)}`)
    // A block opens or closes only outside quotes: a test may hold comment markers in strings.
    const code = line.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''")
    if (/\/\*/.test(code) && !/\*\//.test(code.slice(code.lastIndexOf('/*')))) inBlock = true
    else if (/\*\//.test(code)) inBlock = false
  })
  return found
}

function main() {
  const files = execFileSync('git', ['ls-files', 'src', 'test', 'e2e', 'bench', 'scripts', '*.ts', '*.js'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => kCode.test(f) && !kExempt.test(f))

  const problems = files.flatMap((file) =>
    citingLines(readFileSync(resolve(root, file), 'utf8')).map((l) => `${file}:${l}`),
  )
  if (problems.length) {
    console.error(
      'Comments that cite an issue, a task or a design seed (say what it means, or point into docs/):\n' +
        problems.join('\n'),
    )
    process.exit(1)
  }
  console.log(`comments ok: ${files.length} files cite no issue or seed`)
}

if (import.meta.url === `file://${process.argv[1]}`) main()
