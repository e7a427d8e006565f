/**
 * The instruction cache's key: the normalised request, the site, the
 * path with its ids blanked, and the versions of the packs the plan used. Never a typed value
 * or a secret: those are not part of the request's words.
 */
export function normaliseRequest(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}]+/gu, ' ')
    .trim()
}

// Segments that are ids, not places: numbers, UUIDs, long hex or mixed tokens.
const kIdSegment =
  /^(\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{12,}|(?=.*\d)[A-Za-z0-9_-]{16,})$/i

export function pathPattern(url: string): string {
  try {
    const u = new URL(url)
    return u.pathname
      .split('/')
      .map((seg) => (kIdSegment.test(seg) ? '*' : seg))
      .join('/')
  } catch {
    return ''
  }
}

export function cacheKeyMaterial(request: string, url: string, packVersions: Record<string, string> = {}): string {
  let origin = ''
  try {
    origin = new URL(url).origin
  } catch {
    // keep empty: a page without an origin still caches by request and path
  }
  const packs = Object.keys(packVersions)
    .sort()
    .map((k) => `${k}@${packVersions[k]}`)
  return JSON.stringify([normaliseRequest(request), origin, pathPattern(url), packs])
}

/** The first http(s) URL a request names, for parallel navigation. */
export function urlInRequest(text: string): string | null {
  const m = /\bhttps?:\/\/[^\s"'<>，。、]+/i.exec(text)
  return m ? m[0].replace(/[.,;:!?)\]]+$/, '') : null
}
