import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sleep } from '../../src/core/sleep'

describe('sleep', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it('resolves once the time has passed, not before', async () => {
    let done = false
    const p = sleep(100).then(() => (done = true))
    await vi.advanceTimersByTimeAsync(99)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await p
    expect(done).toBe(true)
  })

  it('rejects with the signal’s reason on abort and clears its timer', async () => {
    const controller = new AbortController()
    const p = sleep(1000, controller.signal)
    expect(vi.getTimerCount()).toBe(1)
    const reason = new Error('stop')
    controller.abort(reason)
    await expect(p).rejects.toBe(reason)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('rejects at once, with no timer, when the signal has already fired', async () => {
    const controller = new AbortController()
    controller.abort()
    await expect(sleep(1000, controller.signal)).rejects.toBe(controller.signal.reason)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('stops listening to the signal once it has resolved', async () => {
    const controller = new AbortController()
    const remove = vi.spyOn(controller.signal, 'removeEventListener')
    const p = sleep(10, controller.signal)
    await vi.advanceTimersByTimeAsync(10)
    await p
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function))
    controller.abort()
  })
})
