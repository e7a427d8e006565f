import { siteOrigin } from '../agent/secrets'
import { packStepKind } from '../vocabulary'

/**
 * What a pack can do, worked out from its steps before it is installed, as a browser lists an
 * extension's permissions (docs/packs-ui.md, "What a pack can do"). A pack is someone else's code:
 * the person is told in one line each what they agree to, and an update says what is new.
 *
 * Read from the text, never run: a `${...}` that the engine fills in at run time is taken at its
 * widest (a navigate to `${params.url}` can go to any site).
 */
export interface PackCapabilities {
  /** The sites the pack says it is for (`sites:`); empty means it runs on any site. */
  sites: string[]
  /** Clicks, types, selects, hovers, scrolls: what every pack does. */
  acts: boolean
  /** getText, getAttribute, snapshot, find: it reads what the page shows. */
  readsText: boolean
  /** Reads what is typed into fields (getAttribute value/checked, getText of a field, a snapshot). */
  readsFields: boolean
  /** Opens addresses: the hosts named, and whether a parameter or page data can choose the site. */
  navigates: { hosts: string[]; anySite: boolean } | null
  /** Sends forms (Enter, a submit button, `submit`). */
  submits: boolean
  /** Reads saved secrets from the vault itself (`${env.*}`) and types them. */
  typesSecrets: boolean
  /** Takes a password or code the caller gives it (a `secret` param): the caller is asked where it goes. */
  takesSecrets: boolean
  /** Puts what it read from the page into an address or a field: data can leave with it. */
  sendsPageData: boolean
  /** Runs its own script in the page (`eval`): can do anything the page can. */
  runsScripts: boolean
  /** Uploads files. */
  uploads: boolean
}

/** One line a person reads, by key into the locale tables (`pack.cap.<key>`), with its values. */
export interface CapabilityLine {
  key:
    | 'sites'
    | 'anySite'
    | 'acts'
    | 'readsText'
    | 'readsFields'
    | 'navigates'
    | 'navigatesAny'
    | 'submits'
    | 'takesSecrets'
    | 'typesSecrets'
    | 'sendsPageData'
    | 'runsScripts'
    | 'uploads'
  params?: Record<string, string>
  /** Whether this line is past "clicks and types on its own sites": the person must say yes to it. */
  sensitive: boolean
}

const kFieldAttrs = /^(?:value|checked|selected|defaultValue)$/i
/**
 * Selectors that point at a field: reading their text reads what was typed. The tag names count
 * only as tags (`input#card`, `//textarea`), not inside a class name (`el-select__wrapper` is a
 * component showing the option chosen, page text like any other).
 */
const kFieldSelector =
  /(?:^|[\s>+~,(/:])(?:input|textarea|select)(?![\w-])|contenteditable|\[name=|type=["']?(?:text|password|email|tel|number)/i
const kSubmitKey = /^(?:enter|numpadenter)$/i
const kSubmitSelector = /submit|type=["']?submit|\bbtn[-_]?(?:send|pay|save|ok|confirm)|button/i
/** A template reading what an earlier step got from the page. */
const kStepData = /\$\{\s*steps\./
const kEnvRef = /\$\{\s*env\./
const kAnyRef = /\$\{/

/** A step as both the raw pack file and the loaded model hold it. */
interface StepLike {
  action: string
  args?: Record<string, unknown>
  fallback?: readonly StepLike[]
}

/** A pack as the validator returns it (`PackFile`) or the registry holds it (`NamespaceDefinition`). */
export interface PackLike {
  sites?: readonly string[]
  selectors?: Record<string, unknown>
  actions: Record<string, { params?: Record<string, { secret?: boolean }>; steps?: readonly StepLike[] }>
}

function walk(steps: readonly StepLike[] | undefined, visit: (s: StepLike) => void): void {
  for (const s of steps ?? []) {
    visit(s)
    walk(s.fallback, visit)
  }
}

function texts(v: unknown): string[] {
  if (typeof v === 'string') return [v]
  if (Array.isArray(v)) return v.flatMap(texts)
  if (v && typeof v === 'object') return Object.values(v).flatMap(texts)
  return []
}

/** The host of a literal address; null when a template chooses the host (or it is no address). */
function literalHost(url: string): string | null {
  const head = url.split(/[/?#]/, 3).join('/')
  if (kAnyRef.test(head.replace(/^https?:\/\//i, '').split('/')[0] ?? '')) return null
  if (!/^https?:\/\//i.test(url)) return url.startsWith('/') && !url.startsWith('//') ? '' : null
  try {
    return new URL(url.replace(/\$\{[^}]*\}/g, 'x')).host
  } catch {
    return null
  }
}

export function packCapabilities(pack: PackLike): PackCapabilities {
  const caps: PackCapabilities = {
    sites: [],
    acts: false,
    readsText: false,
    readsFields: false,
    navigates: null,
    submits: false,
    typesSecrets: false,
    takesSecrets: false,
    sendsPageData: false,
    runsScripts: false,
    uploads: false,
  }
  caps.sites = [...new Set((pack.sites ?? []).map((s) => siteOrigin(s)).filter((o): o is string => !!o))]
  const selectors = pack.selectors ?? {}
  const selectorText = (v: unknown) =>
    texts(v).map((t) => t.replace(/\$\{\s*selectors\.([\w-]+)\s*\}/g, (_, k: string) => texts(selectors[k]).join(' ')))
  const hosts = new Set<string>()
  let anySite = false
  for (const action of Object.values(pack.actions)) {
    if (Object.values(action.params ?? {}).some((p) => p.secret)) caps.takesSecrets = true
    walk(action.steps, (s) => {
      const args = s.args ?? {}
      const all = texts(args)
      if (all.some((t) => kEnvRef.test(t))) caps.typesSecrets = true
      // What the step lets the pack do is its descriptor's (src/core/vocabulary.ts); an unknown one acts.
      const g = packStepKind(s.action)?.grants ?? { acts: true }
      if (g.script) caps.runsScripts = caps.readsText = caps.readsFields = caps.sendsPageData = true
      if (g.opens) {
        const url = String(args.url ?? '')
        const host = literalHost(url)
        if (host === null) anySite = true
        else if (host) hosts.add(host)
        if (kStepData.test(url)) caps.sendsPageData = true
      }
      if (g.acts) caps.acts = true
      if (g.uploads) caps.uploads = true
      if (g.submits === 'key' && kSubmitKey.test(String(args.key ?? ''))) caps.submits = true
      if (g.submits === 'selector' && selectorText(args.selector).some((t) => kSubmitSelector.test(t)))
        caps.submits = true
      if (g.types && all.some((t) => kStepData.test(t))) caps.sendsPageData = true
      if (g.reads) caps.readsText = true
      if (
        g.fields === 'always' ||
        (g.fields === 'attribute' && kFieldAttrs.test(String(args.name ?? ''))) ||
        (g.fields === 'selector' && selectorText(args.selector).some((t) => kFieldSelector.test(t)))
      )
        caps.readsFields = true
    })
  }
  if (hosts.size || anySite) caps.navigates = { hosts: [...hosts].sort(), anySite }
  return caps
}

/** Whether a host is one of the pack's own sites (an origin's host, or any site when it declares none). */
function ownHost(host: string, sites: readonly string[]): boolean {
  return sites.some((o) => new URL(o).host === host)
}

/**
 * The lines shown before install, in a fixed order. A pack that only clicks and types on its own
 * sites has no sensitive line: it installs on the one Install click as before.
 */
export function capabilityLines(c: PackCapabilities): CapabilityLine[] {
  const out: CapabilityLine[] = []
  out.push(
    c.sites.length
      ? { key: 'sites', params: { sites: c.sites.join(', ') }, sensitive: false }
      : { key: 'anySite', sensitive: false },
  )
  if (c.acts) out.push({ key: 'acts', sensitive: false })
  if (c.submits) out.push({ key: 'submits', sensitive: false })
  if (c.readsText) out.push({ key: 'readsText', sensitive: false })
  if (c.readsFields) out.push({ key: 'readsFields', sensitive: true })
  if (c.navigates) {
    const away = c.navigates.hosts.filter((h) => !ownHost(h, c.sites))
    if (c.navigates.anySite) out.push({ key: 'navigatesAny', sensitive: true })
    if (c.navigates.hosts.length)
      out.push({ key: 'navigates', params: { hosts: c.navigates.hosts.join(', ') }, sensitive: away.length > 0 })
  }
  if (c.sendsPageData) out.push({ key: 'sendsPageData', sensitive: true })
  if (c.takesSecrets) out.push({ key: 'takesSecrets', sensitive: false })
  if (c.typesSecrets) out.push({ key: 'typesSecrets', sensitive: true })
  if (c.uploads) out.push({ key: 'uploads', sensitive: true })
  if (c.runsScripts) out.push({ key: 'runsScripts', sensitive: true })
  return out
}

/** One line's identity, so an update can say what is new ("navigates to a.com, b.com" differs from "… a.com"). */
function lineId(l: CapabilityLine): string {
  return `${l.key}:${JSON.stringify(l.params ?? {})}`
}

/** The lines of `next` that `before` did not have: what an update adds. */
export function addedCapabilities(
  before: readonly CapabilityLine[],
  next: readonly CapabilityLine[],
): CapabilityLine[] {
  const had = new Set(before.map(lineId))
  return next.filter((l) => !had.has(lineId(l)))
}

/** A short fingerprint of what the person agreed to: an install confirmed for other capabilities asks again. */
export function capabilityConsent(lines: readonly CapabilityLine[]): string {
  return lines
    .filter((l) => l.sensitive)
    .map(lineId)
    .sort()
    .join('|')
}

/**
 * Whether a step of a pack that reads the page's fields or sends its data may run here without a
 * question: on a site the pack declares, yes; elsewhere the person is asked (docs/security.md,
 * "Packs are someone else's code"). A pack that declares no sites and reads fields or sends data
 * asks wherever it runs.
 */
export function packNeedsAsk(c: PackCapabilities, origin: string | null): boolean {
  if (
    !c.readsFields &&
    !c.sendsPageData &&
    !c.runsScripts &&
    !(c.navigates && (c.navigates.anySite || c.navigates.hosts.some((h) => !ownHost(h, c.sites))) && c.readsText)
  )
    return false
  return !origin || !c.sites.includes(origin)
}

/** Whether the pack's text (its descriptions) may reach the model on `origin`: on its sites, or anywhere when it names none. */
export function packShownOn(sites: readonly string[] | undefined, origin: string | null): boolean {
  if (!sites?.length) return true
  return !!origin && sites.some((s) => siteOrigin(s) === origin)
}

/**
 * The question before a registry action runs on `origin` when it reads the page's fields or sends
 * its data and its pack is not made for that site; null when it may run unasked. The same words
 * refuse it where nobody can be asked (`/run`, the popup's Run: src/background/handlers/actions.ts).
 */
export function packQuestion(
  action: string,
  c: PackCapabilities,
  origin: string | null,
): { reason: string; params: { action: string; site: string } } | null {
  if (!packNeedsAsk(c, origin)) return null
  const what =
    [
      c.readsFields && 'reads what you typed into fields',
      (c.sendsPageData || c.runsScripts) && 'can send the page’s data elsewhere',
    ]
      .filter(Boolean)
      .join(' and ') || 'reads the page and opens other sites'
  const site = origin ?? 'this page'
  const made = c.sites.length
    ? `its pack is made for ${c.sites.join(', ')}, not ${site}`
    : 'its pack names no site it is made for'
  return { reason: `The action ${action} ${what}; ${made}`, params: { action, site } }
}
