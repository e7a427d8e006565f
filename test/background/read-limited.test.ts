// Import from URL stops reading at the pack size limit while the body streams.
import { describe, expect, it } from 'vitest'
import { BodyTooLargeError, readTextLimited } from '../../src/background/read-limited'

/** A body that never ends, counting what was pulled from it and whether it was cancelled. */
function endless(chunk = 64 * 1024) {
  const seen = { bytes: 0, cancelled: false }
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      seen.bytes += chunk
      c.enqueue(new Uint8Array(chunk).fill(0x61))
    },
    cancel() {
      seen.cancelled = true
    },
  })
  return { res: new Response(body), seen }
}

describe('readTextLimited', () => {
  it('stops an endless body just past the limit and cancels it', async () => {
    const { res, seen } = endless()
    const err = await readTextLimited(res, 1024 * 1024, 'https://packs.example/a.yaml').catch((e) => e)
    expect(err).toBeInstanceOf(BodyTooLargeError)
    expect(err).toMatchObject({ code: 'PACK_TOO_LARGE', url: 'https://packs.example/a.yaml', maxBytes: 1024 * 1024 })
    expect(seen.cancelled).toBe(true)
    expect(seen.bytes).toBeLessThanOrEqual(1024 * 1024 + 3 * 64 * 1024)
  })

  it('refuses a declared length over the limit without reading', async () => {
    const { res: raw, seen } = endless()
    const res = new Response(raw.body, { headers: { 'content-length': '5000000' } })
    const queued = seen.bytes // a stream fills its queue when it is made
    await expect(readTextLimited(res, 1000, 'u')).rejects.toBeInstanceOf(BodyTooLargeError)
    expect(seen.bytes).toBe(queued)
    expect(seen.cancelled).toBe(true)
  })

  it('reads a body within the limit whole, multi-byte characters split across chunks included', async () => {
    const bytes = new TextEncoder().encode('name: 动作包 ✓\n'.repeat(100))
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.slice(i, i + 7))
        c.close()
      },
    })
    expect(await readTextLimited(new Response(body), bytes.length, 'u')).toBe('name: 动作包 ✓\n'.repeat(100))
  })

  it('counts bytes, not characters', async () => {
    const text = '动'.repeat(400) // 1200 bytes in UTF-8
    await expect(readTextLimited(new Response(text), 1000, 'u')).rejects.toBeInstanceOf(BodyTooLargeError)
  })
})
