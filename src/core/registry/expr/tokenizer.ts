import { ExpressionSyntaxError, SecurityError } from '../errors'
import { parsePath } from '../paths'
import { kAllowedOperators, type TemplatePart, type Token } from './ast'

/** Longer conditions are not conditions any more; this bounds the work one `when` can cause. */
export const kMaxExpressionLength = 4096

const kAllowedList = `${kAllowedOperators.join(' ')} ( )`

// Characters that start an operator of JavaScript we do not offer: naming them as forbidden
// operators (rather than "unexpected character") tells the author the idea, not just the glyph.
const kForbiddenOperatorChars = new Set([
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '~',
  '?',
  ':',
  ',',
  ';',
  '=',
  '&',
  '|',
  '[',
  ']',
  '{',
  '}',
  '`',
])

const kTwoCharOperators = new Set(['==', '!=', '>=', '<=', '&&', '||'])

const isDigit = (c: string): boolean => c >= '0' && c <= '9'
const isIdentStart = (c: string): boolean => /[\p{L}_$]/u.test(c)
const isIdentPart = (c: string): boolean => /[\p{L}\p{N}_$]/u.test(c)
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r'

function where(input: string, pos: number): string {
  return `at column ${pos + 1} of "${input}"`
}

/**
 * Splits a condition into tokens. Anything outside the language fails here with a typed
 * error and its offset; nothing is ever executed.
 */
export function tokenize(input: string): Token[] {
  if (input.length > kMaxExpressionLength) {
    throw new ExpressionSyntaxError(
      'EXPR_SYNTAX',
      `Condition is ${input.length} characters long; at most ${kMaxExpressionLength} are allowed.`,
      input.slice(0, 80),
      kMaxExpressionLength,
    )
  }
  const tokens: Token[] = []
  let pos = 0
  while (pos < input.length) {
    const c = input[pos]
    if (isSpace(c)) {
      pos++
      continue
    }
    const start = pos
    if (c === '"' || c === "'") {
      const { token, end } = readString(input, pos)
      tokens.push(token)
      pos = end
    } else if (isDigit(c) || ((c === '-' || c === '.') && isNumberStart(input, pos))) {
      const { value, end } = readNumber(input, pos)
      tokens.push({ type: 'NUMBER', value, position: start })
      pos = end
    } else if (c === '$' && input[pos + 1] === '{') {
      const close = input.indexOf('}', pos + 2)
      if (close < 0)
        throw new ExpressionSyntaxError(
          'EXPR_SYNTAX',
          `Unclosed "\${" ${where(input, pos)}; close it with "}".`,
          input,
          pos,
        )
      const raw = input.slice(pos + 2, close)
      const path = parsePath(raw, input, pos)
      tokens.push({ type: 'VARIABLE', value: raw.trim(), position: start, path })
      pos = close + 1
    } else if (isIdentStart(c)) {
      pos = readIdentifier(input, pos, tokens)
    } else if (c === '(') {
      tokens.push({ type: 'LPAREN', value: '(', position: pos++ })
    } else if (c === ')') {
      tokens.push({ type: 'RPAREN', value: ')', position: pos++ })
    } else if (c === '=' || c === '!' || c === '<' || c === '>' || c === '&' || c === '|') {
      pos = readOperator(input, pos, tokens)
    } else if (kForbiddenOperatorChars.has(c)) {
      throw forbiddenOperator(input, pos, c)
    } else {
      throw new ExpressionSyntaxError(
        'EXPR_SYNTAX',
        `Unexpected character "${c}" ${where(input, pos)}; a condition holds strings, numbers, true, false, null, \${...} references and ${kAllowedList}.`,
        input,
        pos,
      )
    }
  }
  tokens.push({ type: 'EOF', value: null, position: input.length })
  return tokens
}

function forbiddenOperator(input: string, pos: number, op: string): SecurityError {
  const hint =
    op === '='
      ? ' (assignment is not allowed; compare with ==)'
      : op === '[' || op === '{'
        ? ' (object and array literals are not allowed)'
        : ''
  return new SecurityError(
    'EXPR_FORBIDDEN_OPERATOR',
    `Operator "${op}" is not allowed${hint} ${where(input, pos)}; allowed: ${kAllowedList}.`,
    input,
    pos,
  )
}

function isNumberStart(input: string, pos: number): boolean {
  const next = input[pos + 1] ?? ''
  if (input[pos] === '.') return isDigit(next)
  return isDigit(next) || (next === '.' && isDigit(input[pos + 2] ?? ''))
}

function readNumber(input: string, pos: number): { value: number; end: number } {
  const match = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?/.exec(input.slice(pos))
  // isNumberStart guarantees a match; the fallback only keeps the types honest.
  const text = match ? match[0] : input[pos]
  const end = pos + text.length
  const after = input[end] ?? ''
  if (isIdentPart(after) || after === '.') {
    throw new ExpressionSyntaxError(
      'EXPR_SYNTAX',
      `Malformed number "${text}${after}" ${where(input, pos)}.`,
      input,
      pos,
    )
  }
  return { value: Number(text), end }
}

const kEscapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', $: '$' }

function readString(input: string, pos: number): { token: Token; end: number } {
  const quote = input[pos]
  const parts: TemplatePart[] = []
  let text = ''
  let hasTemplate = false
  let i = pos + 1
  while (i < input.length) {
    const c = input[i]
    if (c === quote) {
      if (!hasTemplate) return { token: { type: 'STRING', value: text, position: pos }, end: i + 1 }
      if (text !== '') parts.push(text)
      return { token: { type: 'STRING', value: null, position: pos, parts }, end: i + 1 }
    }
    if (c === '\\') {
      const next = input[i + 1]
      if (next === undefined || !(next in kEscapes)) {
        throw new ExpressionSyntaxError(
          'EXPR_SYNTAX',
          `Unknown escape "\\${next ?? ''}" ${where(input, i)}; allowed: \\n \\t \\r \\\\ \\' \\" \\$.`,
          input,
          i,
        )
      }
      text += kEscapes[next]
      i += 2
      continue
    }
    if (c === '$' && input[i + 1] === '{') {
      const close = input.indexOf('}', i + 2)
      if (close < 0)
        throw new ExpressionSyntaxError(
          'EXPR_SYNTAX',
          `Unclosed "\${" ${where(input, i)}; close it with "}".`,
          input,
          i,
        )
      if (text !== '') parts.push(text)
      text = ''
      parts.push({ path: parsePath(input.slice(i + 2, close), input, i) })
      hasTemplate = true
      i = close + 1
      continue
    }
    text += c
    i++
  }
  throw new ExpressionSyntaxError(
    'EXPR_SYNTAX',
    `Unterminated string starting ${where(input, pos)}; close it with ${quote}.`,
    input,
    pos,
  )
}

function readIdentifier(input: string, pos: number, tokens: Token[]): number {
  let end = pos
  while (end < input.length && (isIdentPart(input[end]) || (input[end] === '.' && isIdentPart(input[end + 1] ?? ''))))
    end++
  const word = input.slice(pos, end)
  let after = end
  while (after < input.length && isSpace(input[after])) after++
  if (input[after] === '(') {
    throw new SecurityError(
      'EXPR_FUNCTION_CALL',
      `Function calls are not allowed ("${word}(" ${where(input, pos)}); a condition only compares values.`,
      input,
      pos,
    )
  }
  if (word === 'true' || word === 'false') tokens.push({ type: 'BOOLEAN', value: word === 'true', position: pos })
  else if (word === 'null') tokens.push({ type: 'NULL', value: null, position: pos })
  else tokens.push({ type: 'IDENTIFIER', value: word, position: pos, path: parsePath(word, input, pos) })
  return end
}

function readOperator(input: string, pos: number, tokens: Token[]): number {
  const three = input.slice(pos, pos + 3)
  if (three === '===' || three === '!==') {
    throw new SecurityError(
      'EXPR_FORBIDDEN_OPERATOR',
      `Operator "${three}" is not allowed ${where(input, pos)}; == and != already compare strictly. Allowed: ${kAllowedList}.`,
      input,
      pos,
    )
  }
  const two = input.slice(pos, pos + 2)
  if (kTwoCharOperators.has(two)) {
    tokens.push({ type: 'OPERATOR', value: two, position: pos })
    return pos + 2
  }
  const one = input[pos]
  if (one === '!' || one === '<' || one === '>') {
    tokens.push({ type: 'OPERATOR', value: one, position: pos })
    return pos + 1
  }
  throw forbiddenOperator(input, pos, one)
}
