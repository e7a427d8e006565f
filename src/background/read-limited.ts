/**
 * Reads a fetched body as text, at most `maxBytes` of it ("Import from URL stops
 * reading at the pack size limit while streaming"). `Response.text()` reads to the end, however
 * long: a server that never stops sending would fill the worker's memory. Past the limit the body
 * is cancelled, which closes the connection, and the caller gets a `BodyTooLargeError`.
 */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError'
  /** The person sees this code's message in their language (popup: `error.PACK_TOO_LARGE`). */
  readonly code = 'PACK_TOO_LARGE'
  constructor(
    readonly url: string,
    readonly maxBytes: number,
  ) {
    super(`${url} is larger than ${maxBytes} bytes, the most a pack may be; Ava stopped reading it.`)
  }
}

export async function readTextLimited(res: Response, maxBytes: number, url = res.url): Promise<string> {
  // A declared length over the limit needs no reading at all.
  const declared = Number(res.headers.get('content-length'))
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined)
    throw new BodyTooLargeError(url, maxBytes)
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  let bytes = 0
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.byteLength
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw new BodyTooLargeError(url, maxBytes)
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}
