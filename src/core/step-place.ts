import type { Msg } from './chat'
import type { ExecFailure, RiskCategory } from './exec'
import { domainAllowed } from './settings'
import { sameSite, urlHost } from './host'
import type { SitePolicy } from './offsite'
import { domAction } from './vocabulary'

const msg = (key: string, params: Record<string, string>): Msg => ({ key, params })

/**
 * Where a step acts, judged as the person would judge it (docs/security.md, "Where a step acts"):
 * pure decisions over facts the page reads off the element (src/dom/step-place.ts) — the origin
 * of the frame the element is in, the files an upload carries, the file a click would download —
 * so that whichever gate runs a step calls the same three functions.
 *
 * Each answers a refusal (BLOCKED), a question (NEEDS_CONFIRMATION with `ask`, the question in
 * the person's language naming the site or the file), or null.
 */

/** Where the element is and whose run it is: the frame's own origin and the run's top page. */
export interface StepPlace {
  /** The origin (or URL) of the document the element is in; `null` for an opaque (sandboxed) one. */
  frame: string
  /** The run's site: the top page's URL or origin; null when the page would not say. */
  run: string | null
  /** The element is in the top document itself: it is the run's site, whatever its origin looks like. */
  top?: boolean
}

const hostOf = (url: string) => urlHost(url) ?? url

function ask(key: string, params: Record<string, string>, message: string, category?: RiskCategory): ExecFailure {
  return { ok: false, code: 'NEEDS_CONFIRMATION', message, ask: msg(key, params), ...(category ? { category } : {}) }
}

function blocked(message: string, m: Msg): ExecFailure {
  return { ok: false, code: 'BLOCKED', message, msg: m }
}

/**
 * A step on an element of a frame: refused when the frame's site is blocked or outside a
 * non-empty allow list (any action: the lists say Ava does not act there); a state-changing step
 * in a frame of another site than the run's asks first, naming that site, when the person
 * confirms cross-site steps. A frame whose origin is opaque (sandboxed) or a run whose site the
 * page hides counts as another site.
 */
export function frameSiteRefusal(
  place: StepPlace,
  action: string,
  policy: SitePolicy,
  confirm: readonly RiskCategory[],
): ExecFailure | null {
  const opaque = !/^https?:/i.test(place.frame)
  if (!opaque && !domainAllowed(place.frame, { allowDomains: policy.allow, denyDomains: policy.deny })) {
    const host = hostOf(place.frame)
    return blocked(
      `Blocked: the element is in a frame of ${host}, which is not allowed in Ava's options (allowed and blocked sites), so Ava did not act there.`,
      msg('outcome.step.frameBlocked', { host }),
    )
  }
  if (place.top || !domAction(action).gate.changes || !confirm.includes('cross_site')) return null
  // By site (host.ts `siteOf`): a sign-in frame of accounts.example.com inside mail.example.com is
  // the same party; a frame of bob.github.io inside alice.github.io is not.
  if (!opaque && place.run && sameSite(place.frame, place.run)) return null
  const host = opaque ? '(sandboxed frame)' : hostOf(place.frame)
  return ask('risk.ask.frameSite', { host }, `Acts in a frame of another site: ${host}`, 'cross_site')
}

/** Files the person attached, each on the site it was attached on (src/core/agent/attachments.ts). */
export interface PlacedFile {
  name: string
  /** The origin of the page the person attached it on; absent for a pack's or `ava run`'s own file. */
  site?: string
  /** A page served it during the run (src/core/agent/served-files.ts): `site` is the one that did. */
  served?: boolean
}

/**
 * An upload of files the person attached on one site into a field of another (the field's own
 * frame counts, not the top page): asks, naming the files and the site, whatever the person's
 * confirm list says — the file is theirs, handed to Ava for the site they were on. A file a page
 * downloaded during the run is bound the same way to the site that served it, and the question
 * names both sites.
 */
export function uploadRefusal(files: readonly PlacedFile[], frame: string): ExecFailure | null {
  // By site, as the frame check: the party the person handed the file to, not one origin of it.
  const elsewhere = files.filter((f) => f.site && !(/^https?:/i.test(frame) && sameSite(frame, f.site)))
  if (!elsewhere.length) return null
  const names = elsewhere.map((f) => `“${f.name}”`).join(', ')
  const host = /^https?:/i.test(frame) ? hostOf(frame) : '(sandboxed frame)'
  const from = hostOf(elsewhere[0].site!)
  // A file a page downloaded is that site's: the question says which site handed it over.
  if (elsewhere.some((f) => f.served))
    return ask(
      'risk.ask.uploadServed',
      { names, from, host },
      `Uploads ${names}, downloaded from ${from}, to ${host}`,
      'data_send',
    )
  return ask(
    'risk.ask.uploadSite',
    { names, host, from },
    `Uploads ${names}, attached on ${from}, to ${host}`,
    'data_send',
  )
}

// -------------------------------------------------------------------------------------------
// Downloads

/**
 * File name endings that run code when opened, by Windows, macOS, Linux, Android or a script
 * host (Chromium's download_file_types.asciipb marks the same kinds DANGEROUS or
 * ALLOW_ON_USER_GESTURE). HTML and SVG run script when opened from disk, so they are here too.
 */
export const kExecutableExtensions: ReadonlySet<string> = new Set([
  // Windows programs, installers, shortcuts and script hosts
  'exe',
  'scr',
  'com',
  'pif',
  'bat',
  'cmd',
  'msi',
  'msp',
  'mst',
  'msix',
  'msixbundle',
  'appx',
  'appxbundle',
  'cpl',
  'dll',
  'ocx',
  'sys',
  'drv',
  'lnk',
  'url',
  'scf',
  'inf',
  'reg',
  'hta',
  'msc',
  'gadget',
  'application',
  'appref-ms',
  'vbs',
  'vbe',
  'js',
  'jse',
  'mjs',
  'wsf',
  'wsh',
  'ws',
  'wsc',
  'ps1',
  'ps1xml',
  'ps2',
  'psc1',
  'psd1',
  'psm1',
  'chm',
  'library-ms',
  'settingcontent-ms',
  'xll',
  'iqy',
  'slk',
  'docm',
  'dotm',
  'xlsm',
  'xltm',
  'xlam',
  'pptm',
  'potm',
  'ppam',
  // macOS
  'dmg',
  'pkg',
  'mpkg',
  'app',
  'command',
  'tool',
  'workflow',
  'scpt',
  'applescript',
  'terminal',
  'osx',
  'kext',
  // Linux and other Unix
  'sh',
  'bash',
  'csh',
  'ksh',
  'zsh',
  'run',
  'bin',
  'elf',
  'deb',
  'rpm',
  'appimage',
  'desktop',
  'out',
  // Android, Java, browsers, interpreters, disk images
  'apk',
  'aab',
  'xapk',
  'apks',
  'jar',
  'jnlp',
  'class',
  'crx',
  'xpi',
  'py',
  'pyc',
  'pyw',
  'pl',
  'rb',
  'php',
  'lua',
  'tcl',
  'iso',
  'img',
  'vhd',
  'vhdx',
  'htm',
  'html',
  'xhtml',
  'xht',
  'shtml',
  'mht',
  'mhtml',
  'svg',
  'svgz',
  // Shortcuts and links that open a program or a remote share when double-clicked
  'webloc',
  'inetloc',
  'fileloc',
  'website',
  'searchconnector-ms',
  'diagcab',
  'xbap',
  'ins',
  'isp',
  'ade',
  'adp',
])

/** Endings of pages a server renders or serves to read: a plain link to one is a visit, not a download. */
const kWebPageEndings = new Set([
  'htm',
  'html',
  'xhtml',
  'xht',
  'shtml',
  'mht',
  'mhtml',
  'svg',
  'svgz',
  'php',
  'pl',
  'py',
  'rb',
  'js',
  'mjs',
  'asp',
  'aspx',
  'jsp',
  'cgi',
])

/** Media types of programs, `application/<type>` with or without `x-`: a server sending one sends a program. */
const kProgramTypes = [
  'msdownload',
  'msdos-program',
  'ms-installer',
  'msi',
  'dosexec',
  'executable',
  'sharedlib',
  'sh',
  'shellscript',
  'csh',
  'bat',
  'powershell',
  'vbscript',
  'hta',
  'apple-diskimage',
  'java-archive',
  'java-jnlp-file',
  'elf',
  'mach-binary',
  'ms-shortcut',
  'chrome-extension',
  'xpinstall',
  'iso9660-image',
  'vnd.microsoft.portable-executable',
  'vnd.android.package-archive',
  'vnd.apple.installer+xml',
  'vnd.ms-cab-compressed',
]
const kProgramTypeRe = new RegExp(
  `^application\\/(x-)?(${kProgramTypes.map((t) => t.replace(/[.+]/g, '\\$&')).join('|')})$`,
)
/** Media types of scripts, and of pages that run script when opened from disk. */
const kScriptTypes =
  /^(application\/(x-)?(javascript|ecmascript|python|perl|ruby|php|xhtml\+xml)|text\/(javascript|ecmascript|vbscript|x-sh|x-shellscript|x-python|x-perl|html)|image\/svg\+xml)$/
/** A download's type (from a `data:` URL or a blob) that is a program or a script. */
const isExecutableType = (type: string) => kProgramTypeRe.test(type) || kScriptTypes.test(type)
/** A type that says nothing of what the bytes are: the file's name decides, and without one we cannot know. */
const kUnknownTypes = /^(application\/(octet-stream|binary|unknown|x-download|force-download|download)|\*\/\*)?$/

/** Characters a name can hide its real ending behind: bidi controls (`invoice‮fdp.exe`), zero-width and format characters. */
const kHidden = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\u00ad\ufeff]/g

/**
 * The ending a saved file would get, as the operating system reads it: hidden characters and
 * the trailing dots and spaces Windows drops are removed, an NTFS stream suffix (`::$DATA`)
 * cut, lowercase. Empty when the name has no ending.
 */
export function fileExtension(name: string): string {
  const clean =
    name
      .replace(kHidden, '')
      .replace(/:.*$/, '')
      .replace(/[.\s]+$/, '')
      .split(/[\\/]/)
      .pop() ?? ''
  const dot = clean.lastIndexOf('.')
  return dot > 0 || (dot === 0 && clean.length > 1) ? clean.slice(dot + 1).toLowerCase() : ''
}

/** What a click on a link would download, as the page declares it. */
export interface DownloadFacts {
  /** The link's absolute URL. */
  url: string
  /** The `download` attribute: null when absent, '' when present without a name. */
  download: string | null
}

/** The media type of a `data:` URL (RFC 2397: text/plain when none is written). */
function dataType(url: string): string {
  const head = url.slice(5, url.indexOf(',') < 0 ? undefined : url.indexOf(','))
  const type = head.split(';')[0].trim().toLowerCase()
  return type || 'text/plain'
}

/** The last segment of a URL's path, decoded: what the browser names a file it was not told a name for. */
function pathName(url: string): string {
  try {
    const seg = new URL(url).pathname.split('/').pop() ?? ''
    return decodeURIComponent(seg)
  } catch {
    return ''
  }
}

/**
 * Whether a click on this link would download a program or script, and the file's name as the
 * person should hear it; null when it would not (or would download a document). A `blob:` or
 * `data:` URL whose type is executable, or whose type cannot be known and whose name does not
 * settle it, counts: a page builds those in script, and its server is not asked.
 */
export function executableDownload(d: DownloadFacts): { file: string } | null {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(d.url)?.[1]?.toLowerCase() ?? ''
  const named = d.download?.trim() ? d.download.trim() : ''
  if (scheme === 'data' || scheme === 'blob') {
    const type = scheme === 'data' ? dataType(d.url) : '' // a blob's type is in the page's memory, not its URL
    const shown = named || (scheme === 'data' ? `data: (${type})` : 'blob: (type unknown)')
    if (named && kExecutableExtensions.has(fileExtension(named))) return { file: shown }
    if (isExecutableType(type)) return { file: shown }
    // Chrome names a nameless blob or data download after its type; an unknown type leaves the
    // name — and so what opening it does — to the bytes.
    if (!named && (scheme === 'blob' || kUnknownTypes.test(type))) return { file: shown }
    if (named && kUnknownTypes.test(type) && !fileExtension(named)) return { file: shown }
    return null
  }
  if (scheme !== 'http' && scheme !== 'https' && scheme !== 'ftp' && scheme !== 'file') return null
  // An http(s) link: the name is the attribute's, else the path's last segment (a server's
  // Content-Disposition is not known before the click; the background's limits cover it).
  const file = named || pathName(d.url)
  const ending = fileExtension(file)
  if (!file || !kExecutableExtensions.has(ending)) return null
  // Without a `download` attribute, a link to `page.html` or `index.php` is a page to visit; with
  // one, even an empty one, it is saved to disk, where an HTML or SVG file runs its script.
  return d.download !== null || !kWebPageEndings.has(ending) ? { file } : null
}

/** A click that would download a program or script asks first, naming the file (any confirm list). */
export function downloadRefusal(d: DownloadFacts | null): ExecFailure | null {
  const exe = d && executableDownload(d)
  if (!exe) return null
  return ask('risk.ask.download', { file: exe.file }, `Downloads “${exe.file}”, a program or script`)
}

/** A response header condition of declarativeNetRequest. */
export interface HeaderCondition {
  header: string
  values: string[]
}

/**
 * What a server says of a program it sends, as declarativeNetRequest response-header conditions:
 * a Content-Disposition naming a program's ending (page and script endings left out: a saved
 * receipt or an export is often HTML), or a program's media type. A download the page starts by
 * itself — `location.assign`, a form POST answered with an attachment, a plain link whose server
 * names the file — shows no name before the click to ask about; the background's gate blocks such
 * a response in a run's tab (src/core/offsite.ts `gateRules`). Patterns match case-insensitively;
 * `*` is any run of characters.
 */
export function programResponseHeaders(): HeaderCondition[] {
  const endings = programEndings()
  return [
    { header: 'content-disposition', values: endings.flatMap((e) => [`*.${e}`, `*.${e}"*`, `*.${e};*`, `*.${e} *`]) },
    {
      header: 'content-type',
      values: kProgramTypes.flatMap((t) => [
        `application/${t}`,
        `application/${t};*`,
        `application/x-${t}`,
        `application/x-${t};*`,
      ]),
    },
  ]
}

/** The endings a served file is blocked by: programs, shortcuts and installers, not pages a server renders nor source files. */
function programEndings(): string[] {
  return [...kExecutableExtensions].filter((e) => !kWebPageEndings.has(e) && !kScriptOnly.has(e))
}

/**
 * Endings of documents a run may download under a name the server encodes (RFC 6266 `filename*`,
 * percent-escapes, RFC 2047): what a person downloads in a task, and nothing that runs when opened.
 */
const kDocumentEndings = [
  'pdf',
  'txt',
  'csv',
  'tsv',
  'json',
  'xml',
  'md',
  'rtf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
  'epub',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'mp3',
  'mp4',
  'wav',
  'zip',
  'ics',
  'vcf',
]

/**
 * A Content-Disposition whose file name the browser decodes before saving — `filename*=UTF-8''…`
 * (RFC 6266: it wins over `filename`), `%`-escapes (Chrome decodes them in a plain `filename`
 * too, a dot as `%2E` included), RFC 2047 `=?utf-8?B?…?=` — can spell a program's ending that no
 * pattern sees. A rule cannot decode, so during a run such a response is blocked, unless its
 * `filename*` is the last parameter and plainly ends in a document's ending (what Chrome saves is
 * then that document); `programNameTricks` blocks the rest, a parameter after `filename*` among them.
 * Patterns are declarativeNetRequest's: `*` any run, `?` one character or none, `\` escapes.
 */
export function encodedNameHeaders(): { values: HeaderCondition[]; excluded: HeaderCondition[] } {
  return {
    values: [{ header: 'content-disposition', values: ['*filename\\*=*', '*%*', '*=\\?*\\?=*'] }],
    excluded: [{ header: 'content-disposition', values: kDocumentEndings.map((e) => `*filename\\*=*'*'*.${e}`) }],
  }
}

/** What no document exclusion may let through: another parameter after an encoded `filename*`, whose `*` in a pattern could cross into it. */
export function programNameTricks(): HeaderCondition[] {
  return [{ header: 'content-disposition', values: ['*filename\\*=*;*', '*filename\\*=*,*'] }]
}

/** Media types that say nothing of the bytes: the browser names such a download after the address it came from. */
const kUnnamedTypes = [
  'application/octet-stream',
  'binary/octet-stream',
  'application/binary',
  'application/unknown',
  'application/x-download',
  'application/force-download',
  'application/download',
  'application/x-unknown',
]

/**
 * A response sent with a type that says nothing, whose final address (after every redirect: a
 * rule sees each request of the chain) ends in a program's ending, a dot spelled `%2E` included:
 * Chrome saves it under that name. As declarativeNetRequest `regexFilter`s (RE2) and the header
 * condition of the type; Chrome compiles a rule's expression into at most 2 KB, which about fifty
 * characters of endings fill, so the endings are shared out over several rules.
 */
export function programByAddress(): { regexFilter: string; responseHeaders: HeaderCondition[] }[] {
  const chunks: string[][] = [[]]
  for (const e of programEndings()) {
    const last = chunks[chunks.length - 1]
    if (last.length && [...last, e].join('|').length > kRegexEndingChars) chunks.push([e])
    else last.push(e)
  }
  const responseHeaders = [{ header: 'content-type', values: kUnnamedTypes.flatMap((t) => [t, `${t};*`]) }]
  return chunks.map((endings) => ({
    regexFilter: `^[^?#]*(\\.|%2[eE])(${endings.map((e) => e.replace(/[-.]/g, (c) => `\\${c}`)).join('|')})(\\.|%2[eE])?([?#;]|$)`,
    responseHeaders,
  }))
}

/** Characters of endings one address rule holds: measured with `isRegexSupported`, 60 fit in Chrome 2KB and 84 do not. */
const kRegexEndingChars = 48

/** Endings a server also sends to be read as text (source files): asked about on a click, not blocked by type of response. */
const kScriptOnly = new Set(['bash', 'csh', 'ksh', 'zsh', 'lua', 'tcl', 'out', 'bin', 'img', 'run'])
