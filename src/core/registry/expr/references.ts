import type { ASTNode } from './ast'

/** A variable a condition reads, with where it was written (for validation messages). */
export interface Reference {
  path: string[]
  position: number
}

/** Every variable an AST reads, in source order; the validator checks their scopes. */
export function collectReferences(node: ASTNode, out: Reference[] = []): Reference[] {
  switch (node.type) {
    case 'Variable':
      out.push({ path: node.path, position: node.position })
      break
    case 'Template':
      for (const part of node.parts)
        if (typeof part !== 'string') out.push({ path: part.path, position: node.position })
      break
    case 'GroupExpr':
      collectReferences(node.expression, out)
      break
    case 'UnaryExpr':
      collectReferences(node.operand, out)
      break
    case 'BinaryExpr':
      collectReferences(node.left, out)
      collectReferences(node.right, out)
      break
    case 'Literal':
      break
  }
  return out
}
