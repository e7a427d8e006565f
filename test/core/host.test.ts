import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { canonicalHost, sameSite, siteOf } from '../../src/core/host'
import { blockedBy, gateRules, offsiteOf } from '../../src/core/offsite'
import { domainAllowed, hostPattern } from '../../src/core/settings'

const kRuns = { numRuns: 200, interruptAfterTimeLimit: 20_000 }
const byte = fc.integer({ min: 0, max: 255 })
const ipv4 = fc.tuple(byte, byte, byte, byte)

/** Every spelling of one IPv4 address that Chromium loads as that address. */
function spellings([a, b, c, d]: number[]): string[] {
  const n = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d
  const hex = (x: number) => `0x${x.toString(16)}`
  const group = (hi: number, lo: number) => ((hi << 8) | lo).toString(16)
  return [
    `${a}.${b}.${c}.${d}`,
    String(n), // one number
    hex(n),
    [a, b, c, d].map(hex).join('.'),
    [a, b, c, d].map((x) => `0${x.toString(8)}`).join('.'), // octal
    `${a}.${(b << 16) + (c << 8) + d}`, // a.bcd, as `127.1`
    `${a}.${b}.${(c << 8) + d}`,
    `${a}.${b}.${c}.${d}.`, // trailing dot
    `${a}.${b}.${c}.${d}..`,
    `[::ffff:${a}.${b}.${c}.${d}]`, // IPv4-mapped IPv6
    `[::ffff:${group(a, b)}:${group(c, d)}]`,
    `[0:0:0:0:0:ffff:${group(a, b)}:${group(c, d)}]`,
    `[::FFFF:${group(a, b).toUpperCase()}:${group(c, d)}]`,
  ]
}

describe('canonicalHost: one spelling per host', () => {
  it('reads every numeric and IPv6-mapped spelling of an IPv4 address as that address', () => {
    fc.assert(
      fc.property(ipv4, (ip) => {
        const dotted = ip.join('.')
        for (const s of spellings(ip)) expect(canonicalHost(s), s).toBe(dotted)
      }),
      kRuns,
    )
  })

  it('blocks a listed address under any spelling, in the page (domainAllowed) and in the background (blockedBy)', () => {
    fc.assert(
      fc.property(ipv4, fc.boolean(), (ip, listMapped) => {
        const listed = listMapped ? `::ffff:${ip.join('.')}` : ip.join('.')
        const safety = { allowDomains: [], denyDomains: [listed] }
        const rules = gateRules(
          7,
          { site: 'home.test', allowed: [], policy: { allow: [], deny: [listed] }, crossSite: false },
          0,
        )
        for (const s of spellings(ip)) {
          const url = `http://${s}/admin`
          expect(domainAllowed(url, safety), url).toBe(false)
          expect(offsiteOf(url, 'https://home.test/', { allow: [], deny: [listed] })?.verdict, url).toBe('denied')
          // The background's rules hold the dotted form; what Chromium loads for the other
          // spellings is that same dotted host (the URL parser ran before the request left).
          expect(blockedBy(rules, 7, url)?.kind, url).toBe('deny')
        }
      }),
      kRuns,
    )
  })

  it('lets an allow list of one address admit its spellings and nothing else', () => {
    fc.assert(
      fc.property(ipv4, ipv4, (ip, other) => {
        fc.pre(ip.join('.') !== other.join('.'))
        const safety = { allowDomains: [ip.join('.')], denyDomains: [] }
        for (const s of spellings(ip)) expect(domainAllowed(`http://${s}/`, safety), s).toBe(true)
        for (const s of spellings(other)) expect(domainAllowed(`http://${s}/`, safety), s).toBe(false)
      }),
      { numRuns: 100, interruptAfterTimeLimit: 20_000 },
    )
  })

  it('folds case, trailing dots, full-width dots and IDNs to the punycode host', () => {
    expect(canonicalHost('EVIL.com..')).toBe('evil.com')
    expect(canonicalHost('evil。com')).toBe('evil.com')
    expect(canonicalHost('%65vil.com')).toBe('evil.com')
    expect(canonicalHost('BÜCHER.de.')).toBe('xn--bcher-kva.de')
    expect(hostPattern('*.Bücher.DE.')).toBe('*.xn--bcher-kva.de')
    for (const url of ['https://BÜCHER.de./', 'https://xn--bcher-kva.de/', 'https://bücher.de../x']) {
      expect(domainAllowed(url, { allowDomains: [], denyDomains: ['bücher.de'] }), url).toBe(false)
    }
  })

  it('keeps IPv6 hosts as the parser writes them, and a list may name one', () => {
    expect(canonicalHost('::1')).toBe('[::1]')
    expect(canonicalHost('[0:0:0:0:0:0:0:1]')).toBe('[::1]')
    expect(hostPattern('[::1]')).toBe('[::1]')
    expect(domainAllowed('http://[0::1]:8080/', { allowDomains: [], denyDomains: ['::1'] })).toBe(false)
  })

  it('is no host for a path, a user, a port in a list entry, or a space', () => {
    for (const p of ['evil.com/x', 'a@evil.com', 'evil.com:8080', 'a b.com', '']) expect(hostPattern(p), p).toBeNull()
  })
})

describe('siteOf / sameSite: one party, by the public suffix list', () => {
  it('puts a registrable domain and its subdomains on one site', () => {
    expect(siteOf('https://mail.example.com/inbox')).toBe('example.com')
    expect(sameSite('https://mail.example.com/', 'https://accounts.example.com/signin')).toBe(true)
    expect(sameSite('https://www.example.com/a', 'https://example.com/b')).toBe(true)
    // Scheme and port are not part of a site here, as before.
    expect(sameSite('http://example.com:8080/', 'https://a.example.com/')).toBe(true)
  })

  it('keeps sites under a shared public suffix apart (ICANN and private sections)', () => {
    expect(siteOf('https://shop.bbc.co.uk/')).toBe('bbc.co.uk')
    expect(sameSite('https://a.co.uk/', 'https://b.co.uk/')).toBe(false)
    expect(sameSite('https://news.bbc.co.uk/', 'https://shop.bbc.co.uk/')).toBe(true)
    expect(siteOf('https://alice.github.io/x')).toBe('alice.github.io')
    expect(sameSite('https://alice.github.io/', 'https://bob.github.io/')).toBe(false)
    expect(sameSite('https://alice.github.io/', 'https://docs.alice.github.io/')).toBe(true)
    expect(sameSite('https://x.blogspot.com/', 'https://y.blogspot.com/')).toBe(false)
    // A host that is itself a public suffix is only itself.
    expect(siteOf('https://co.uk/')).toBe('co.uk')
    expect(sameSite('https://co.uk/', 'https://a.co.uk/')).toBe(false)
  })

  it('compares IP addresses and localhost by their whole host, in one spelling', () => {
    expect(sameSite('http://127.0.0.1:3000/', 'http://127.0.0.1:4000/')).toBe(true)
    expect(sameSite('http://127.0.0.1/', 'http://127.0.0.2/')).toBe(false)
    // The URL parser already reads numeric spellings as the dotted address; host.ts maps IPv4-mapped IPv6.
    expect(siteOf('http://2130706433/')).toBe('127.0.0.1')
    expect(sameSite('http://0x7f.1/', 'http://127.0.0.1/')).toBe(true)
    expect(sameSite('http://[::ffff:7f00:1]/', 'http://127.0.0.1/')).toBe(true)
    // Never a "registrable domain" of an address: 10.0.0.1 and 20.0.0.1 share no suffix.
    expect(sameSite('http://10.0.0.1/', 'http://20.0.0.1/')).toBe(false)
    expect(siteOf('http://[2001:db8::1]:8443/')).toBe('[2001:db8::1]')
    expect(sameSite('http://[2001:db8::1]/', 'http://[2001:db8::2]/')).toBe(false)
    expect(sameSite('http://[::1]/', 'http://[::1]:9000/')).toBe(true)
    expect(sameSite('http://localhost:3000/', 'http://localhost:5173/')).toBe(true)
    expect(sameSite('http://localhost/', 'http://127.0.0.1/')).toBe(false)
    expect(sameSite('http://app.localhost/', 'http://api.localhost/')).toBe(false)
  })

  it('reads IDN and trailing dots in one spelling, and no site without a host', () => {
    expect(sameSite('https://bücher.de/', 'https://shop.xn--bcher-kva.de/')).toBe(true)
    expect(sameSite('https://evil.com./', 'https://www.evil.com/')).toBe(true)
    expect(siteOf('about:blank')).toBeNull()
    expect(siteOf('not a url')).toBeNull()
    expect(sameSite('about:blank', 'about:blank')).toBe(false)
  })

  it('lets a same-site link go unasked and asks for another site, naming it', () => {
    expect(
      offsiteOf('https://accounts.example.com/login', 'https://mail.example.com/', { allow: [], deny: [] }),
    ).toBeNull()
    expect(offsiteOf('https://bob.github.io/', 'https://alice.github.io/', { allow: [], deny: [] })).toMatchObject({
      verdict: 'cross_site',
      host: 'bob.github.io',
    })
  })

  it('lets the background gate through what the page lets through: the run’s registrable domain', () => {
    const rules = gateRules(
      7,
      { site: siteOf('https://mail.example.com/')!, allowed: [], policy: { allow: [], deny: [] }, crossSite: true },
      0,
    )
    expect(blockedBy(rules, 7, 'https://accounts.example.com/')).toBeNull()
    expect(blockedBy(rules, 7, 'https://example.net/')?.kind).toBe('cross_site')
    const pages = gateRules(
      7,
      { site: siteOf('https://alice.github.io/')!, allowed: [], policy: { allow: [], deny: [] }, crossSite: true },
      0,
    )
    expect(blockedBy(pages, 7, 'https://bob.github.io/')?.kind).toBe('cross_site')
  })
})
