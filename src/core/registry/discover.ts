import type { ActionRegistry } from './registry'

// Discovery: which registry actions a free-text request is most likely
// about, so the planner sees them. A request may be English or Chinese; an action matches through
// its name, its parameter names, `description` or `description_zh` (registry.search).

// Terms too common in requests to say which action is meant.
const kStopWords = new Set([
  'the',
  'and',
  'for',
  'with',
  'this',
  'that',
  'then',
  'please',
  'from',
  'into',
  'open',
  'click',
  'page',
  'show',
  'tell',
  'what',
  'does',
  'say',
  'can',
  'you',
  'all',
  'our',
  'my',
  '一下',
  '帮我',
  '请帮',
  '然后',
  '这个',
  '那个',
  '页面',
  '点击',
  '打开',
  '所有',
  '我的',
  '一个',
  '现在',
  '可以',
])

/**
 * The terms of a request: latin words of three letters or more, and every overlapping pair of
 * Han characters (Chinese has no spaces, so 状态 is a term of 筛选出状态为 wherever it starts).
 */
export function requestTerms(request: string): string[] {
  const text = request.toLowerCase()
  const terms = [...text.matchAll(/[a-z0-9]{3,}/g)].map((m) => m[0])
  for (const run of text.match(/\p{Script=Han}{2,}/gu) ?? []) {
    const chars = [...run]
    for (let i = 0; i + 1 < chars.length; i++) terms.push(chars[i] + chars[i + 1])
  }
  return [...new Set(terms)].filter((w) => !kStopWords.has(w))
}

/**
 * The names of the `limit` actions a request is most about, best first. Each term counts
 * 1 / (how many actions it finds): a term every action shares (订单 on an orders site) says
 * little, one only a single action has says much. Deprecated actions are left out.
 */
export function discoverActions(registry: Pick<ActionRegistry, 'search'>, request: string, limit = 5): string[] {
  const score = new Map<string, number>()
  for (const term of requestTerms(request)) {
    const found = registry.search(term).filter((a) => !a.deprecated)
    for (const a of found) score.set(a.name, (score.get(a.name) ?? 0) + 1 / found.length)
  }
  return [...score.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([name]) => name)
}
