import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  blockedBy,
  gateRuleIds,
  gateRules,
  offsiteOf,
  offsiteReason,
  ruleDomain,
  type SitePolicy,
  type TabGate,
} from '../../src/core/offsite'
import { domainAllowed } from '../../src/core/settings'
import { siteOf } from '../../src/core/host'
import {
  encodedNameHeaders,
  programByAddress,
  programNameTricks,
  programResponseHeaders,
} from '../../src/core/step-place'
import { getDomain } from 'tldts'

const kRuns = { numRuns: 200, interruptAfterTimeLimit: 20_000 }
const none: SitePolicy = { allow: [], deny: [] }

// A label that starts with "xn--" is punycode, and most such strings are not valid punycode: no
// browser loads them (new URL throws), so they are left to the IDN test below.
const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/).filter((l) => !l.startsWith('xn--'))
const tld = fc.constantFrom('com', 'org', 'de', 'io', 'co.uk')
// Not itself a public suffix: "de.com" or "us.com" (CentralNic's, in the list's private section)
// is where others register, so www.de.com is another site than de.com.
const host = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld)
  .map(([ls, t]) => `${ls.join('.')}.${t}`)
  .filter((h) => getDomain(h, { allowPrivateDomains: true }) !== null)
const path = fc.stringMatching(/^(\/[a-z0-9._~-]{0,8}){0,3}(\?[a-z]=[a-z0-9]{0,5})?$/)
const port = fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined })
const url = (h: string, p = '/', pt?: number) => `https://${h}${pt ? `:${pt}` : ''}${p || '/'}`

describe('offsiteOf: where a step would go, decided from the URL the browser would load', () => {
  it('stays on the site for any same-host URL, whatever the path, port or a leading www.', () => {
    fc.assert(
      fc.property(host, path, port, fc.boolean(), (h, p, pt, www) => {
        expect(offsiteOf(url(www ? `www.${h}` : h, p, pt), url(h, '/start'), none)).toBeNull()
      }),
      kRuns,
    )
  })

  it('calls any host of another site (registrable domain) another site, and names it', () => {
    fc.assert(
      fc.property(host, host, path, (here, there, p) => {
        fc.pre(siteOf(url(here)) !== siteOf(url(there)))
        const o = offsiteOf(url(there, p), url(here), none)
        expect(o).toMatchObject({ verdict: 'cross_site', host: there })
        expect(offsiteReason(o!)).toContain(there)
      }),
      kRuns,
    )
    // A subdomain of the same registrable domain is the same site (host.ts siteOf); a sibling under a public suffix is not.
    expect(offsiteOf('https://pay.shop.com/', 'https://shop.com/', none)).toBeNull()
    expect(offsiteOf('https://pay.shop.co.uk/', 'https://shop.co.uk/', none)).toBeNull()
    expect(offsiteOf('https://evil.co.uk/', 'https://shop.co.uk/', none)?.verdict).toBe('cross_site')
  })

  it('reads the host the browser reads: userinfo, protocol-relative, backslashes, case and IDNs', () => {
    fc.assert(
      fc.property(host, host, fc.constantFrom('', 'user:pw', 'a%40b'), (good, evil, extra) => {
        fc.pre(siteOf(url(good)) !== siteOf(url(evil)))
        const here = url(good, '/account')
        // "https://good.com@evil.com" goes to evil.com: what stands before the @ is a user name.
        expect(offsiteOf(`https://${good}${extra ? `:${extra}` : ''}@${evil}/x`, here, none)?.host).toBe(evil)
        expect(offsiteOf(`//${evil}/x`, here, none)?.host).toBe(evil)
        expect(offsiteOf(`/\\${evil}/x`, here, none)?.host).toBe(evil)
        expect(offsiteOf(`HTTPS://${evil.toUpperCase()}/`, here, none)?.host).toBe(evil)
        // Relative addresses stay.
        for (const rel of ['/x', 'x?y=1', '#top', '?q=1', `./${evil}`, ''])
          expect(offsiteOf(rel, here, none)).toBeNull()
      }),
      kRuns,
    )
    expect(offsiteOf('https://bücher.de/', 'https://buecher.de/', none)).toMatchObject({
      verdict: 'cross_site',
      host: 'xn--bcher-kva.de',
    })
  })

  it('leaves what loads no page to the background gate: javascript:, mailto:, data:, unparsable', () => {
    for (const t of [
      'javascript:location="https://evil.com"',
      'mailto:a@evil.com',
      'data:text/html,hi',
      'tel:123',
      'http://[bad',
    ]) {
      expect(offsiteOf(t, 'https://good.com/', none)).toBeNull()
    }
  })

  it('denies a blocked host however it is written, from any page, before asking about other sites', () => {
    fc.assert(
      fc.property(
        host,
        host,
        path,
        port,
        fc.constantFrom('', 'www.'),
        fc.boolean(),
        (here, bad, p, pt, sub, trailingDot) => {
          const policy = { allow: [], deny: [`*.${bad}`] }
          const target = `https://${sub}${bad.toUpperCase()}${trailingDot ? '.' : ''}${pt ? `:${pt}` : ''}${p}`
          expect(offsiteOf(target, url(here), policy)?.verdict).toBe('denied')
          expect(offsiteOf(`https://${here}@${bad}/`, url(here), policy)?.verdict).toBe('denied')
        },
      ),
      kRuns,
    )
    // An IDN written in Unicode in the list still blocks the punycode the URL carries.
    expect(
      offsiteOf('https://xn--bcher-kva.de/', 'https://good.com/', { allow: [], deny: ['Bücher.de'] })?.verdict,
    ).toBe('denied')
    expect(domainAllowed('https://evil.com./', { allowDomains: [], denyDomains: ['evil.com'] })).toBe(false)
  })

  it('denies what a non-empty allow list leaves out', () => {
    fc.assert(
      fc.property(host, host, (ok, other) => {
        fc.pre(ok !== other && !other.endsWith(`.${ok}`))
        const policy = { allow: [`*.${ok}`], deny: [] }
        expect(offsiteOf(url(other), url(ok), policy)?.verdict).toBe('denied')
        // Allowed, and the same site: no question.
        expect(offsiteOf(url(`a.${ok}`), url(ok), policy)).toBeNull()
      }),
      kRuns,
    )
  })
})

describe('gateRules: the background gate of a run’s tab', () => {
  const tab = 7
  const gate = (g: Partial<TabGate>): TabGate => ({
    site: 'shop.com',
    allowed: [],
    policy: none,
    crossSite: true,
    ...g,
  })

  it('scopes every rule to the tab and to top-level loads, with ids no other slot uses', () => {
    const rules = gateRules(tab, gate({ policy: { allow: ['shop.com', 'pay.com'], deny: ['evil.com'] } }), 0)
    expect(rules.map((r) => r.condition)).toEqual([
      { tabIds: [7], resourceTypes: ['main_frame'], requestDomains: ['evil.com'] },
      { tabIds: [7], resourceTypes: ['main_frame'], excludedRequestDomains: ['shop.com', 'pay.com'] },
      { tabIds: [7], resourceTypes: ['main_frame'], excludedRequestDomains: ['shop.com'] },
      { tabIds: [7], resourceTypes: ['main_frame', 'sub_frame'], responseHeaders: programResponseHeaders() },
      {
        tabIds: [7],
        resourceTypes: ['main_frame', 'sub_frame'],
        responseHeaders: encodedNameHeaders().values,
        excludedResponseHeaders: encodedNameHeaders().excluded,
      },
      { tabIds: [7], resourceTypes: ['main_frame', 'sub_frame'], responseHeaders: programNameTricks() },
      ...programByAddress().map((byAddress) => ({
        tabIds: [7],
        resourceTypes: ['main_frame', 'sub_frame'],
        ...byAddress,
        isUrlFilterCaseSensitive: false,
      })),
    ])
    expect(rules.map((r) => r.id)).toEqual(gateRuleIds(0))
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e8 }), fc.integer({ min: 0, max: 1e8 }), (a, b) => {
        fc.pre(a !== b)
        const ids = new Set(gateRuleIds(a))
        expect(gateRuleIds(b).some((id) => ids.has(id))).toBe(false)
        expect(Math.min(...gateRuleIds(a))).toBeGreaterThanOrEqual(1)
      }),
      kRuns,
    )
  })

  it('never lets through what the page refuses: a denied URL is blocked, a cross-site one until allowed', () => {
    fc.assert(
      fc.property(host, host, host, path, fc.boolean(), (site, bad, other, p, crossSite) => {
        const policy = { allow: [], deny: [bad] }
        const rules = gateRules(tab, gate({ site: `www.${site}`, policy, crossSite }), 0)
        const target = url(other, p)
        const page = offsiteOf(target, url(site), policy)
        const bg = blockedBy(rules, tab, target)
        if (page?.verdict === 'denied') expect(bg).not.toBeNull()
        if (page?.verdict === 'cross_site' && crossSite && !other.endsWith(`.${site}`))
          expect(bg?.kind).toBe('cross_site')
        if (!page) expect(bg).toBeNull() // the run's own site is never blocked
        // A yes for the host lets it through, unless it is denied (the gate denies a denied
        // host's subdomains too: it errs on the blocked side).
        const allowed = blockedBy(gateRules(tab, gate({ site, policy, crossSite, allowed: [other] }), 0), tab, target)
        const denied = page?.verdict === 'denied' || other.endsWith(`.${bad}`)
        expect(allowed?.kind ?? null).toBe(denied ? 'deny' : null)
        // Other tabs are not the run's.
        expect(blockedBy(rules, tab + 1, target)).toBeNull()
      }),
      kRuns,
    )
  })

  it('blocks only denied sites when cross-site steps are not asked about', () => {
    const rules = gateRules(tab, gate({ crossSite: false, policy: { allow: [], deny: ['evil.com'] } }), 0)
    expect(blockedBy(rules, tab, 'https://other.org/')).toBeNull()
    expect(blockedBy(rules, tab, 'https://a.evil.com/x')).toEqual({ kind: 'deny', host: 'a.evil.com' })
  })

  it('writes list entries as Chrome wants domains, and drops what is no host', () => {
    expect(ruleDomain('*.Bücher.DE')).toBe('xn--bcher-kva.de')
    expect(ruleDomain('www.shop.com', { site: true })).toBe('shop.com')
    for (const bad of ['', '  ', 'a/b', 'evil.com:80', 'user@evil.com']) expect(ruleDomain(bad)).toBeNull()
    // Only the rule that holds for every run is left: a program in the response.
    expect(
      gateRules(tab, gate({ policy: { allow: [], deny: ['a/b'] }, crossSite: false }), 0).map((r) =>
        r.condition.responseHeaders ? 'program' : 'address',
      ),
    ).toEqual(
      gateRuleIds(0)
        .slice(3)
        .map(() => 'program'),
    )
  })
})
