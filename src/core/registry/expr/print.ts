import { kPrecedence, type ASTNode, type TemplatePart } from './ast'

function quote(text: string): string {
  return `'${text.replace(/[\\'$\n\t\r]/g, (c) => ({ '\\': '\\\\', "'": "\\'", $: '\\$', '\n': '\\n', '\t': '\\t', '\r': '\\r' })[c] ?? c)}'`
}

function printParts(parts: readonly TemplatePart[]): string {
  const body = parts.map((p) => (typeof p === 'string' ? quote(p).slice(1, -1) : `\${${p.path.join('.')}}`)).join('')
  return `'${body}'`
}

function printLiteral(value: string | number | boolean | null): string {
  if (typeof value === 'string') return quote(value)
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0'
  return String(value)
}

/**
 * Prints an AST back as a condition that parses to an equivalent tree: parentheses only where
 * precedence or left-associativity needs them. Used for plans and for the round-trip property.
 */
export function printExpression(node: ASTNode): string {
  switch (node.type) {
    case 'Literal':
      return printLiteral(node.value)
    case 'Variable':
      return `\${${node.path.join('.')}}`
    case 'Template':
      return printParts(node.parts)
    case 'GroupExpr':
      return `(${printExpression(node.expression)})`
    case 'UnaryExpr': {
      const inner = printExpression(node.operand)
      return node.operand.type === 'BinaryExpr' ? `!(${inner})` : `!${inner}`
    }
    case 'BinaryExpr': {
      const own = kPrecedence[node.operator]
      const side = (child: ASTNode, right: boolean): string => {
        const text = printExpression(child)
        if (child.type !== 'BinaryExpr') return text
        const theirs = kPrecedence[child.operator]
        return theirs < own || (right && theirs === own) ? `(${text})` : text
      }
      return `${side(node.left, false)} ${node.operator} ${side(node.right, true)}`
    }
  }
}
