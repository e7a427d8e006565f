import { siteOf } from './host'

/**
 * What a person gives an outside caller of Ava in their own browser (an MCP client through
 * `ava mcp --chrome`): a tab, and the sites it may read and act on there (docs/mcp.md, "What a
 * grant covers"). A site is a registrable domain (host.ts `siteOf`), so a grant on
 * `mail.example.com` covers `accounts.example.com` and not `example.org`. The grant is the site
 * of the tab the person gave, the sites they named for the client in the options, and the sites
 * they said yes to while it drove the tab; nothing else is read or acted on.
 */

/** A site as a person writes it in the options (`example.com`, `https://shop.example.com/x`); null when it names no site. */
export function grantSite(entry: string): string | null {
  const text = entry.trim()
  if (!text) return null
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`
  if (!/^https?:/i.test(url)) return null
  const site = siteOf(url)
  // Chromium's URL parser percent-escapes what WHATWG's refuses in a host (`not a site` becomes
  // `not%20a%20site`): only a host's own characters name a site.
  return site && /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)$/.test(site) ? site : null
}

/** The sites of a grant, each once, in the order given. */
export function grantSites(entries: readonly string[]): string[] {
  return [...new Set(entries.map(grantSite).filter((s): s is string => !!s))]
}

/** Whether the page at `url` is on a site the grant covers; an address with no site (about:blank, a file) is covered by none. */
export function grantCovers(sites: readonly string[], url: string): boolean {
  const site = /^https?:/i.test(url) ? siteOf(url) : null
  return !!site && sites.includes(site)
}

/** The site a step would take the tab to, from the host the page's own check names (`Offsite.host`, which may carry a port). */
export function siteOfHost(host: string): string | null {
  return siteOf(`http://${host}`)
}
