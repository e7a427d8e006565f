/**
 * A descriptor as the semantic rung reads it: parsed in core (descriptor.ts), translated through
 * the glossary.
 */
import { type Descriptor, parseDescriptor } from '../../../core/page/descriptor'

/** The parsed descriptor, plus the fields older callers read. */
export interface SemanticQuery extends Descriptor {
  text: string
  /** The kinds named, as a set. */
  roles: Set<string>
}

export function parseQuery(text: string): SemanticQuery {
  const d = parseDescriptor(text)
  return { ...d, text, roles: new Set(d.kinds) }
}
