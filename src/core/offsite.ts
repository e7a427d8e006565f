import { kRiskReasons } from './agent/risk'
import type { ExecFailure, RiskCategory } from './exec'
import { domainAllowed, hostPattern } from './settings'
import { sameSite, urlHost } from './host'
import {
  encodedNameHeaders,
  programByAddress,
  programNameTricks,
  programResponseHeaders,
  type HeaderCondition,
} from './step-place'

/**
 * Every way a step can leave the site or reach a denied one, decided once here:
 * the page asks `offsiteOf` before a step acts (src/dom/offsite.ts works out where the step would
 * go), and the background turns the same policy into declarativeNetRequest rules for the run's
 * tab (`gateRules`, src/background/offsite.ts) for what the page cannot see: script navigations,
 * window.open, meta refresh, redirects.
 */

/** The person's allowed and blocked sites (settings.safety), as the page and the gate need them. */
export interface SitePolicy {
  /** When not empty, only these hosts (a leading `*.` matches subdomains). */
  allow: string[]
  deny: string[]
}

export type OffsiteVerdict = 'denied' | 'cross_site'
export interface Offsite {
  verdict: OffsiteVerdict
  /** The absolute URL the step would load. */
  url: string
  host: string
}

/** A URL as the browser would resolve it from `here`, when it loads a page over http(s); else null. */
export function pageUrl(target: string, here: string): URL | null {
  let url: URL
  try {
    url = new URL(target, here || undefined)
  } catch {
    return null
  }
  // javascript:, mailto:, blob: and the like load no other site by themselves; what a script does
  // next is the background gate's to catch.
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null
}

/**
 * Where a navigation to `target` from the page at `here` stands: `denied` by the lists, on
 * another site (`cross_site`), or null when it stays on this site or loads no page.
 */
export function offsiteOf(target: string, here: string, policy: SitePolicy): Offsite | null {
  const url = pageUrl(target, here)
  if (!url) return null
  const out = { url: url.href, host: url.host }
  if (!domainAllowed(url.href, { allowDomains: policy.allow, denyDomains: policy.deny }))
    return { verdict: 'denied', ...out }
  // By site, not origin: a link from mail.example.com to accounts.example.com stays with the same
  // party, as the background gate's rules (`gateRules`, the run's `site`) let it through too.
  return sameSite(url.href, here) ? null : { verdict: 'cross_site', ...out }
}

/** What the person reads when a step is refused or asked about. */
export function offsiteReason(o: Offsite, carriesData = false): string {
  if (o.verdict === 'denied')
    return `Blocked: ${o.host} is not allowed in Ava's options (allowed and blocked sites), so Ava did not go there.`
  return `${kRiskReasons.cross_site}: ${o.host}${carriesData ? ' (and takes the form’s fields with it)' : ''}`
}

/**
 * The gate of one navigation, whoever causes it (a link the page would follow, a `navigate` step of
 * the model, a pack or a flow): BLOCKED for a denied site, yes or no; NEEDS_CONFIRMATION naming the
 * host for another site when the person confirms those; null when it may go. From a page with no
 * URL yet, only the lists apply.
 */
export function navigationRefusal(
  target: string,
  here: string,
  policy: SitePolicy,
  confirm: readonly RiskCategory[],
  carriesData = false,
): ExecFailure | null {
  const off = offsiteOf(target, here || target, policy)
  if (off?.verdict === 'denied') return { ok: false, code: 'BLOCKED', message: offsiteReason(off) }
  if (off && here && confirm.includes('cross_site'))
    return {
      ok: false,
      code: 'NEEDS_CONFIRMATION',
      message: offsiteReason(off, carriesData),
      offsite: off.host,
      ...(carriesData ? { carriesData } : {}),
    }
  return null
}

// -------------------------------------------------------------------------------------------
// The background gate: declarativeNetRequest session rules scoped to a run's tab.

/** What the gate of one tab lets through: its site, the sites the person said yes to, the lists. */
export interface TabGate {
  /** The site the run started on (host.ts `siteOf`: its registrable domain, or an IP's or localhost's whole host). */
  site: string
  /** Hosts the person confirmed during the run (a cross-site step or a `navigate`). */
  allowed: string[]
  policy: SitePolicy
  /** Whether a cross-site navigation needs a yes (`cross_site` in settings.safety.confirm). */
  crossSite: boolean
}

export type GateRuleKind = 'deny' | 'allow_list' | 'cross_site' | 'program'
/** One id per rule of a slot; the rules of a served program (by headers, by encoded name, by address) are one kind. */
const kKinds: GateRuleKind[] = [
  'deny',
  'allow_list',
  'cross_site',
  'program',
  'program',
  'program',
  ...programByAddress().map((): GateRuleKind => 'program'),
]

/** The subset of chrome.declarativeNetRequest.Rule the gate writes. */
export interface GateRule {
  id: number
  priority: number
  action: { type: 'block' }
  condition: {
    tabIds: number[]
    resourceTypes: ('main_frame' | 'sub_frame')[]
    requestDomains?: string[]
    excludedRequestDomains?: string[]
    responseHeaders?: HeaderCondition[]
    excludedResponseHeaders?: HeaderCondition[]
    regexFilter?: string
    isUrlFilterCaseSensitive?: boolean
  }
}

/**
 * A guarded tab's rules take one slot of ids, one per kind, so the kind of a rule reads off its
 * id. Tab ids are too large to be rule ids (32-bit), so the background gives each guarded tab
 * the first free slot; the rules' `tabIds` say which tab a slot belongs to.
 */
export function gateRuleIds(slot: number): number[] {
  return kKinds.map((_, k) => slot * kKinds.length + k + 1)
}

export function gateRuleKind(id: number): GateRuleKind {
  return kKinds[(id - 1) % kKinds.length]
}

/**
 * A list entry as a declarativeNetRequest domain: lowercase ASCII (punycode), without `*.`
 * (a rule's domain matches its subdomains anyway), without `www.` for a site. Null when it is
 * no host at all.
 */
export function ruleDomain(pattern: string, { site = false } = {}): string | null {
  const host = hostPattern(pattern)?.replace(/^\*\./, '')
  // A bracketed IPv6 literal is no declarativeNetRequest domain (a rule holding one is refused
  // whole); such an entry is kept by the page's check (domainAllowed) alone.
  if (!host || host.startsWith('[')) return null
  return site ? host.replace(/^www\./, '') : host
}

const domains = (list: string[], opts?: { site?: boolean }) => [
  ...new Set(list.map((p) => ruleDomain(p, opts)).filter((d): d is string => !!d)),
]

/**
 * The tab's rules: denied hosts (and their subdomains: the gate errs on the blocked side), hosts
 * outside a non-empty allow list, and, when cross-site steps ask first, every other site than
 * the run's own and those the person said yes to. Top-level documents only (`main_frame`): an
 * embedded frame is not the run leaving the site. And, always, a response that is a program to
 * download, in the top document or a frame (step-place.ts `programResponseHeaders`).
 */
export function gateRules(tabId: number, gate: TabGate, slot: number): GateRule[] {
  const [denyId, allowId, crossId, programId, encodedId, trickId, ...addressIds] = gateRuleIds(slot)
  const base = (id: number, extra: Partial<GateRule['condition']>): GateRule => ({
    id,
    priority: 1,
    action: { type: 'block' },
    condition: { tabIds: [tabId], resourceTypes: ['main_frame'], ...extra },
  })
  const rules: GateRule[] = []
  const deny = domains(gate.policy.deny)
  if (deny.length) rules.push(base(denyId, { requestDomains: deny }))
  const allow = domains(gate.policy.allow)
  // An allow list whose entries are all unusable allows nothing, as domainAllowed reads it.
  if (gate.policy.allow.length) rules.push(base(allowId, allow.length ? { excludedRequestDomains: allow } : {}))
  const own = domains([gate.site, ...gate.allowed], { site: true })
  if (gate.crossSite && own.length) rules.push(base(crossId, { excludedRequestDomains: own }))
  // A program the server sends, in the top document or a frame (a hidden frame downloads too).
  rules.push(base(programId, { resourceTypes: ['main_frame', 'sub_frame'], responseHeaders: programResponseHeaders() }))
  // …by what the browser will save: a name it decodes first, or the address a redirect ended on.
  const encoded = encodedNameHeaders()
  rules.push(
    base(encodedId, {
      resourceTypes: ['main_frame', 'sub_frame'],
      responseHeaders: encoded.values,
      excludedResponseHeaders: encoded.excluded,
    }),
  )
  rules.push(base(trickId, { resourceTypes: ['main_frame', 'sub_frame'], responseHeaders: programNameTricks() }))
  for (const [k, byAddress] of programByAddress().entries())
    rules.push(
      base(addressIds[k], {
        resourceTypes: ['main_frame', 'sub_frame'],
        ...byAddress,
        isUrlFilterCaseSensitive: false,
      }),
    )
  return rules
}

/** declarativeNetRequest's domain match: the domain itself or any subdomain of it. */
function domainMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`)
}

/**
 * Which of the tab's rules blocks a top-level load of `url`, read the way Chrome applies them:
 * the background uses it to tell the person why a navigation it saw was stopped.
 */
export function blockedBy(rules: GateRule[], tabId: number, url: string): { kind: GateRuleKind; host: string } | null {
  const u = pageUrl(url, '')
  if (!u) return null
  const host = urlHost(u) ?? u.hostname
  for (const r of rules) {
    const c = r.condition
    // A program's response is known by its headers, never by its address.
    if (!c.tabIds.includes(tabId) || c.responseHeaders) continue
    if (c.requestDomains && !c.requestDomains.some((d) => domainMatches(host, d))) continue
    if (c.excludedRequestDomains?.some((d) => domainMatches(host, d))) continue
    return { kind: gateRuleKind(r.id), host: u.host }
  }
  return null
}

/** The person's message when the gate stopped a navigation the page did not ask about. */
export function gateMessage(b: { kind: GateRuleKind; host: string }): string {
  if (b.kind === 'program')
    return `Ava stopped: ${b.host} answered with a program to download, or sent this tab on to a site Ava's rules do not allow. Ava saves no program during a run, and nothing was loaded or downloaded; do it yourself if you trust it.`
  if (b.kind === 'cross_site')
    return `Ava stopped: the page tried to take this run to ${b.host}, another site nobody said yes to. Nothing was loaded there.`
  return `Ava stopped: the page tried to go to ${b.host}, which is not allowed in Ava's options (allowed and blocked sites). Nothing was loaded there.`
}
