// Fails when code outside the step vocabulary (src/core/vocabulary.ts) decides by an action's
// name: a `switch` with an action name as a case, or a comparison of an expression to an action
// name (`step.action === 'click'`). What an action does is a property of its descriptor; a new
// action is added by describing it, not by editing comparisons (docs/architecture.md, "A new
// action"). Read with the TypeScript parser, so strings, comments and templates are never mistaken
// for code.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'

const root = resolve(import.meta.dirname, '..')

/** The tables whose names are action names, by their constant in vocabulary.ts. */
const kTables = ['kDomActions', 'kInstructions', 'kFlowSteps', 'kTabActions', 'kPackSteps']

/**
 * Files that implement an action by its name and so may spell it: the vocabulary itself, the
 * executor's runners (each registers under its name) and the pack engine's step runners.
 */
export const kImplementers = new Set(['src/core/vocabulary.ts'])

/**
 * What an expression compared with a name is, when it is not an action: a DOM event's or an
 * input's `type`, a key, a role, a tag. `'click'` is an event as well as an action, `'select'` an
 * element, `'submit'` an input type: such comparisons are about the page, not the vocabulary.
 */
const kOtherWords =
  /^(?:type|key|code|role|localName|tagName|nodeName|inputType|event|ev|kind|level|tag|mode|status|group|missed|judges|ox|oy|it|control|parent|inPage|r|s)$/

/** A comparison a reader marked as not about an action, on its line or the line before: `// not an action name: why`. */
const kMarker = /\/\/ not an action name\b/

function parse(file, text) {
  return ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.ES2022,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  )
}

/** Every action name the vocabulary's tables declare (each entry's literal `name:`). */
export function actionNames(vocabularyText = readFileSync(join(root, 'src/core/vocabulary.ts'), 'utf8')) {
  const names = new Set()
  const sf = parse('vocabulary.ts', vocabularyText)
  const visit = (n, inTable) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && kTables.includes(n.name.text)) inTable = true
    if (inTable && ts.isPropertyAssignment(n) && n.name.getText(sf) === 'name' && ts.isStringLiteral(n.initializer))
      names.add(n.initializer.text)
    ts.forEachChild(n, (c) => visit(c, inTable))
  }
  visit(sf, false)
  return names
}

/** The last name of an expression: `step.action` → action, `d['runs']` → runs, `(x as T).name` → name. */
function lastName(e) {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) e = e.expression
  if (ts.isIdentifier(e)) return e.text
  if (ts.isPropertyAccessExpression(e)) return e.name.text
  if (ts.isElementAccessExpression(e) && ts.isStringLiteral(e.argumentExpression)) return e.argumentExpression.text
  if (ts.isCallExpression(e)) return lastName(e.expression)
  return null
}

const kCompare = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
])

/** Whether `e` is a literal naming an action. */
function nameLiteral(e, names) {
  return (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) && names.has(e.text)
}

/** An expression that may hold an action's name: anything but the page's own words (kOtherWords). */
function actionExpression(e) {
  const n = lastName(e)
  return n === null || !kOtherWords.test(n)
}

/** The decisions by action name in one source: `line: text` each. */
export function offencesIn(file, text, names = actionNames()) {
  const sf = parse(file, text)
  const out = []
  const lines = text.split('\n')
  const at = (n, what) => {
    const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line
    if (kMarker.test(lines[line]) || kMarker.test(lines[line - 1] ?? '')) return
    out.push(`${line + 1}: ${what}`)
  }
  const visit = (n) => {
    if (ts.isSwitchStatement(n) && actionExpression(n.expression)) {
      const cases = n.caseBlock.clauses.filter((c) => ts.isCaseClause(c) && nameLiteral(c.expression, names))
      if (cases.length)
        at(n, `switch (${n.expression.getText(sf)}) over ${cases.map((c) => c.expression.getText(sf)).join(', ')}`)
    }
    if (ts.isBinaryExpression(n) && kCompare.has(n.operatorToken.kind)) {
      const [lit, other] = nameLiteral(n.right, names) ? [n.right, n.left] : [n.left, n.right]
      if (nameLiteral(lit, names) && actionExpression(other)) at(n, n.getText(sf).replace(/\s+/g, ' ').slice(0, 120))
    }
    ts.forEachChild(n, visit)
  }
  visit(sf)
  return out
}

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) yield* sources(p)
    else if (/\.ts$/.test(name) && !name.endsWith('.d.ts')) yield p
  }
}

/** Every decision by action name under src/ outside the files allowed one, per file. */
export function decisionsByFile() {
  const names = actionNames()
  const out = new Map()
  for (const file of sources(join(root, 'src'))) {
    const rel = relative(root, file).split('\\').join('/')
    if (kImplementers.has(rel)) continue
    const found = offencesIn(rel, readFileSync(file, 'utf8'), names)
    if (found.length) out.set(rel, found)
  }
  return out
}

/** Every decision by action name outside the vocabulary: `file:line: text`. */
export function vocabularyOffences(byFile = decisionsByFile()) {
  return [...byFile].flatMap(([file, found]) => found.map((f) => `${file}:${f}`))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const found = vocabularyOffences()
  if (found.length) {
    console.error(
      `Decisions by action name outside src/core/vocabulary.ts (ask a descriptor instead; docs/architecture.md, "A new action"):\n${found.map((f) => `  ${f}`).join('\n')}`,
    )
    process.exit(1)
  }
  console.log('check-vocabulary: no decision by action name outside the vocabulary')
}
