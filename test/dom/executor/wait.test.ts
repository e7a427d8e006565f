// @vitest-environment happy-dom
// A wait's deadline holds even when its probe is slow.
import { afterEach, expect, test, vi } from 'vitest'
import { waitFor } from '../../../src/dom/executor/wait'

afterEach(() => vi.restoreAllMocks())

test('the deadline is checked after each probe, not only by the timer', async () => {
  // Each probe "takes" 10 s of clock time; the timer alone would wait the full minute of real time.
  let now = 1_000_000
  vi.spyOn(Date, 'now').mockImplementation(() => now)
  let probes = 0
  const probe = () => {
    probes++
    now += 10_000
    return null
  }
  await expect(waitFor(probe, 60_000)).resolves.toBeNull()
  // Six slow probes use up the minute. A timer-only wait stays pending for a real minute, past the
  // test timeout: that is how this test fails on the old loop.
  expect(probes).toBeLessThanOrEqual(8)
})
