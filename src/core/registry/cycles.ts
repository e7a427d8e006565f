import type { PathSegment } from './errors'

// A `run` that comes back to an action already on the call chain would recurse until the
// depth limit. Found statically over the graph "action → actions its steps run".

export interface RunEdge {
  from: string
  to: string
  /** 'fallback' when the run sits inside a fallback list (at any depth). */
  kind: 'run' | 'fallback'
  /** Where the run step is, for the error position. */
  path: PathSegment[]
}

export interface Cycle {
  /** Action names along the cycle, first repeated at the end: a → b → a. */
  chain: string[]
  /** True when any edge of the cycle is inside a fallback (CIRCULAR_FALLBACK). */
  throughFallback: boolean
  /** The edge that closes the cycle. */
  closing: RunEdge
}

/** Every distinct cycle in the graph (each reported once, at the edge that closes it). */
export function findCycles(edges: readonly RunEdge[]): Cycle[] {
  const out = new Map<string, RunEdge[]>()
  for (const e of edges) {
    const list = out.get(e.from)
    if (list) list.push(e)
    else out.set(e.from, [e])
  }
  const state = new Map<string, 'active' | 'done'>()
  const stack: RunEdge[] = []
  const cycles: Cycle[] = []
  const seen = new Set<string>()

  // Iterative DFS: packs from strangers must not be able to overflow our stack with a long chain.
  for (const start of out.keys()) {
    if (state.has(start)) continue
    const frames: Array<{ node: string; next: number }> = [{ node: start, next: 0 }]
    state.set(start, 'active')
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]
      const list = out.get(frame.node) ?? []
      if (frame.next >= list.length) {
        state.set(frame.node, 'done')
        frames.pop()
        stack.pop()
        continue
      }
      const edge = list[frame.next++]
      const s = state.get(edge.to)
      if (s === 'active') {
        const begin = edge.to === frame.node ? stack.length : stack.findIndex((e) => e.from === edge.to)
        const loop = [...stack.slice(begin === -1 ? stack.length : begin), edge]
        const chain = [...loop.map((e) => e.from), edge.to]
        const key = [...new Set(chain)].sort().join('|')
        if (!seen.has(key)) {
          seen.add(key)
          cycles.push({ chain, throughFallback: loop.some((e) => e.kind === 'fallback'), closing: edge })
        }
      } else if (s === undefined) {
        state.set(edge.to, 'active')
        stack.push(edge)
        frames.push({ node: edge.to, next: 0 })
      }
    }
  }
  return cycles
}
