import { getDomain } from 'tldts'

/**
 * One spelling per host, so that a listed host cannot be reached under another name the browser
 * loads just the same (docs/security.md, "Leaving the site, and blocked sites").
 *
 * The WHATWG URL parser already does most of it: lowercase, IDNA to punycode (full-width dots
 * included), percent-decoding, and every IPv4 spelling the host parser accepts — `2130706433`,
 * `0x7f.1`, `0177.0.0.1`, `127.1` — serialised as `127.0.0.1`. What it leaves:
 * - trailing dots (`evil.com.` and `evil.com..` are evil.com to the resolver);
 * - IPv4-mapped IPv6 (`[::ffff:7f00:1]`, RFC 4291 §2.5.5.2): the socket connects to the IPv4
 *   address, so it is that host; the parser keeps it as IPv6.
 */

/** `::ffff:a.b.c.d` as the URL parser serialises it: `::ffff:XXXX:XXXX` in hex groups. */
const kMappedV6 = /^\[(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/

function mappedV4(hostname: string): string | null {
  const m = kMappedV6.exec(hostname)
  if (!m) return null
  // The mapped prefix is exactly 80 zero bits then ffff; the parser compresses it to `::ffff:`.
  if (!hostname.startsWith('[::ffff:')) return null
  const hi = parseInt(m[1], 16)
  const lo = parseInt(m[2], 16)
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.')
}

/**
 * The host as the browser would connect to it, in one spelling: the URL parser's hostname, an
 * IPv4-mapped IPv6 address as its IPv4 address, without trailing dots. `raw` is a hostname or a
 * bare host as a person writes it in a list (`[::1]`, `Bücher.de.`); null when it is no host.
 */
export function canonicalHost(raw: string): string | null {
  const text = raw.trim()
  if (!text || /[/?#@\\\s]/.test(text)) return null
  // A bare IPv6 address, as a person may write it in a list, is bracketed as in a URL.
  const bracketed = !text.startsWith('[') && text.split(':').length > 2 ? `[${text}]` : text
  let hostname: string
  try {
    const url = new URL(`http://${bracketed}/`)
    if (url.port || url.username || url.password) return null
    hostname = url.hostname
  } catch {
    return null
  }
  hostname = hostname.replace(/\.+$/, '')
  if (!hostname) return null
  // `evil.com.` lost its dot above; one more pass lets the parser see a numeric form it hid (`127.1.`).
  if (!hostname.startsWith('[')) {
    try {
      hostname = new URL(`http://${hostname}/`).hostname
    } catch {
      return null
    }
  }
  return mappedV4(hostname) ?? hostname
}

/** The canonical host of an http(s) URL (or any URL with a host); null without one. */
export function urlHost(url: string | URL): string | null {
  try {
    const u = typeof url === 'string' ? new URL(url) : url
    return u.hostname ? canonicalHost(u.hostname) : null
  } catch {
    return null
  }
}

/**
 * The site of a URL, as browsers draw the line between one party and another (the HTML
 * standard's "site", the cookie rules' "same-site"): its registrable domain (eTLD+1) by the
 * public suffix list, private section included, so `mail.example.com` and `accounts.example.com`
 * are one site while `alice.github.io` and `bob.github.io` are two, as are `a.co.uk` and
 * `b.co.uk`. An IP address, `localhost` or a host that is itself a public suffix has no
 * registrable domain: it is its own site, by its whole canonical host. Scheme and port are left
 * out (as they were when sites were compared by hostname). Null when the URL has no host.
 */
export function siteOf(url: string | URL): string | null {
  const host = urlHost(url)
  if (!host) return null
  if (host.startsWith('[') || /^\d+(\.\d+){3}$/.test(host)) return host
  return getDomain(host, { allowPrivateDomains: true }) ?? host
}

/**
 * Two URLs are on the same site (`siteOf`). For the site checks of where a step acts and where
 * it goes (core/offsite.ts, core/step-place.ts); never for secrets, which stay bound to their
 * exact origin (core/agent/secrets.ts `originOf`, dom/secret-trust.ts).
 */
export function sameSite(a: string, b: string): boolean {
  const x = siteOf(a)
  return !!x && x === siteOf(b)
}
