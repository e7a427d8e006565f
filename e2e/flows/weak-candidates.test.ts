import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { replayFlow, type Flow } from '../../src/core/flows'
import { pagePort, startFlowHarness, type FlowHarness } from './harness'

// On the replay path: a recorded step whose element, and everything of its kind, is
// gone still hands the repair the nearest controls (the ladder's weak candidates), never nothing.

let h: FlowHarness
beforeAll(async () => {
  h = await startFlowHarness()
})
afterAll(() => h.close())

const flow = (description?: string): Flow => ({
  version: '1.0',
  metadata: { name: 'Save the form', created_at: '2026-01-01T00:00:00Z', source: 'manual' },
  variables: {},
  steps: [
    {
      step_id: 1,
      action: 'click',
      params: {},
      selectors: {
        primary: { type: 'role', value: 'role:button[name="Publish now"]' },
        fallback: [{ type: 'id', value: 'css:#publish-now' }],
      },
      element_snapshot: { tag: 'button', role: 'button', text: 'Publish now', attributes: {} },
      ...(description ? { description } : {}),
    },
  ],
})

describe('a replayed step that finds nothing of its kind', () => {
  test('fails ELEMENT_NOT_FOUND with weak candidates from its description, or from its selectors without one', async () => {
    const page = await h.open('/plain.html')
    // No button at all is left, so no look-alike of the recorded button exists: the page adds one
    // 600 ms after load, so wait for it before removing them all.
    await page.waitForSelector('#late-btn')
    await page.evaluate(() => document.querySelectorAll('button').forEach((b) => b.remove()))
    for (const description of ['the email field', undefined]) {
      const r = await replayFlow(flow(description), {
        navigateToStart: false,
        port: pagePort(page),
        stepTimeoutMs: 300,
      })
      expect(r.error?.code, String(description)).toBe('ELEMENT_NOT_FOUND')
      const candidates = r.error!.candidates
      expect(candidates.length, String(description)).toBeGreaterThan(0)
      // Each is a selector a repair can use on the page as it is.
      expect(candidates.every((c) => c.selector && c.count === 1)).toBe(true)
    }
    const described = await replayFlow(flow('the email field'), {
      navigateToStart: false,
      port: pagePort(page),
      stepTimeoutMs: 300,
    })
    expect(described.error!.candidates[0].label).toMatch(/email/i)
  })
})
