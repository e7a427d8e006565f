// The `when` language: tokens carry their offset so errors can point at them.

export type TokenType =
  'STRING' | 'NUMBER' | 'BOOLEAN' | 'NULL' | 'IDENTIFIER' | 'VARIABLE' | 'OPERATOR' | 'LPAREN' | 'RPAREN' | 'EOF'

/** A piece of a string literal: text, or a `${path}` read when the condition is evaluated. */
export type TemplatePart = string | { path: string[] }

export interface Token {
  type: TokenType
  value: string | number | boolean | null
  /** 0-based offset of the token's first character in the expression. */
  position: number
  /** IDENTIFIER and VARIABLE: the path segments. */
  path?: string[]
  /** STRING containing `${...}`: its pieces. */
  parts?: TemplatePart[]
}

export type BinaryOp = '==' | '!=' | '>' | '<' | '>=' | '<=' | '&&' | '||'
export type ComparisonOp = '>' | '<' | '>=' | '<='

export type ASTNode =
  | { type: 'Literal'; value: string | number | boolean | null }
  | { type: 'Variable'; path: string[]; position: number }
  | { type: 'Template'; parts: TemplatePart[]; position: number }
  | { type: 'UnaryExpr'; operator: '!'; operand: ASTNode }
  | { type: 'BinaryExpr'; operator: BinaryOp; left: ASTNode; right: ASTNode }
  | { type: 'GroupExpr'; expression: ASTNode }

/** Binding strength, weakest first, as the recursive descent orders it. */
export const kPrecedence: Record<BinaryOp, number> = {
  '||': 1,
  '&&': 2,
  '==': 3,
  '!=': 3,
  '>': 4,
  '<': 4,
  '>=': 4,
  '<=': 4,
}

export const kAllowedOperators = ['==', '!=', '>', '<', '>=', '<=', '&&', '||', '!'] as const
