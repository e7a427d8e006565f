// The run's tab gate (src/background/offsite.ts) against a declarativeNetRequest that behaves as
// Chrome's does: each call takes a turn of the event loop, and an update that adds a rule id
// already in place fails whole. Two runs starting at once, and a closed tab's cleanups arriving
// after the next run was guarded, must leave every live run its rules.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { GateRule, TabGate } from '../../src/core/offsite'

let rules: GateRule[] = []
/** How long each next call takes (ms), in the order the calls are made; 1 once they are used up. */
let delays: number[] = []
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const tick = () => sleep(delays.shift() ?? 1)

vi.mock('webextension-polyfill', () => ({
  default: {
    declarativeNetRequest: {
      getSessionRules: async () => {
        await tick()
        return structuredClone(rules)
      },
      updateSessionRules: async ({
        removeRuleIds = [],
        addRules = [],
      }: {
        removeRuleIds?: number[]
        addRules?: GateRule[]
      }) => {
        await tick()
        const kept = rules.filter((r) => !removeRuleIds.includes(r.id))
        if (addRules.some((a) => kept.some((r) => r.id === a.id))) throw new Error('Rule with id already exists')
        rules = [...kept, ...structuredClone(addRules)]
      },
    },
  },
}))

const { guardTab, moveGuard, releaseTab } = await import('../../src/background/offsite')

const gate: TabGate = { site: 'shop.test', allowed: [], policy: { allow: [], deny: [] }, crossSite: true }
const guarded = (tab: number) => rules.filter((r) => r.condition.tabIds.includes(tab)).length

beforeEach(() => {
  rules = []
  delays = []
})

describe('the tab gate follows each run', () => {
  it('gives two runs that start at once each their own rules', async () => {
    await Promise.all([guardTab(1, gate), guardTab(2, gate)])
    expect(guarded(1)).toBeGreaterThan(0)
    expect(guarded(2)).toBeGreaterThan(0)
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length)
  })

  it('keeps the next run’s rules when a closed tab’s cleanups (its own end and the close) come after it was guarded', async () => {
    await guardTab(1, gate)
    // Run 1's tab is closed: the close and the run's end each release it; the first of them reads
    // the rules, then is slow to write; run 2 starts meanwhile and is given the freed slot.
    delays = [1, 1, 20, 1, 1, 1]
    await Promise.all([releaseTab(1), releaseTab(1), sleep(5).then(() => guardTab(2, gate))])
    expect(guarded(1)).toBe(0)
    expect(guarded(2)).toBeGreaterThan(0)
  })

  it('keeps a new run’s rules in the same tab when the last run’s cleanup finds it already running', async () => {
    await guardTab(3, gate)
    let running = false
    const cleanup = releaseTab(3, () => running)
    const next = guardTab(3, gate).then(() => (running = true))
    await Promise.all([cleanup, next])
    // A cleanup that arrives after the new run is live leaves its guard be.
    await releaseTab(3, () => running)
    expect(guarded(3)).toBeGreaterThan(0)
  })

  it('moves the gate with the run into the tab it opened even when the tab it left was closed first', async () => {
    await guardTab(4, gate)
    // The opener's close is released before the run's move takes its turn: its rules are gone.
    await Promise.all([releaseTab(4), moveGuard(4, 5, gate)])
    expect(guarded(4)).toBe(0)
    expect(guarded(5)).toBeGreaterThan(0)
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length)
  })

  it('moves the rules themselves, with the person’s yeses, when the tab it left still has them', async () => {
    await guardTab(6, { ...gate, allowed: ['partner.test'] })
    const before = rules
      .filter((r) => r.condition.tabIds.includes(6))
      .map((r) => ({ ...r, condition: { ...r.condition, tabIds: [7] } }))
    await moveGuard(6, 7, gate)
    expect(guarded(6)).toBe(0)
    expect(rules.filter((r) => r.condition.tabIds.includes(7))).toEqual(before)
  })
})
