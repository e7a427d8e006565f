import { unzipSync } from 'fflate'
import { z } from 'zod'
import { sameSite, urlHost } from '../host'
import { fileExtension, kExecutableExtensions } from '../step-place'
import { formatSize, pickAttachments } from './attachments'
import { redactShapes } from './redact'

/**
 * Files a page hands over during a run (docs/agent.md, "Files the page hands over"): an export,
 * an invoice, a ZIP of statements the page downloads while Ava works in its tab. Each is bound to
 * the site that served it: the run on that site may read it, and an upload of it to another site
 * asks first, naming the file and both sites (src/core/step-place.ts `uploadRefusal`). Its text
 * is the page's: what the model reads of it is redacted by the one redactor, bounded and framed
 * as untrusted (the step's detail goes back inside the page block, prompt.ts `buildFollowUp`).
 *
 * Pure data → data; the background watches downloads and holds the bytes (src/background/downloads.ts).
 */

/** What the run records and the model is told of a served file: never the bytes. */
export const ServedFileSchema = z.object({
  name: z.string(),
  size: z.number().int().nonnegative(),
  mimeType: z.string().optional(),
  /** The origin of the page that served it: the address it came from, or the page a `blob:`/`data:` one was made by. */
  site: z.string(),
  /** Its bytes could not be fetched again (a `blob:` of the page's memory, a one-time address, too large). */
  unread: z.string().optional(),
})
export type ServedFile = z.infer<typeof ServedFileSchema>

/** How Ava reads a file: as text, as a PDF's text, as a ZIP's list of entries, or not at all. */
export type ServedKind = 'csv' | 'tsv' | 'json' | 'text' | 'pdf' | 'zip' | 'program' | 'other'

const kTextEndings: Record<string, ServedKind> = {
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  json: 'json',
  txt: 'text',
  text: 'text',
  md: 'text',
  log: 'text',
  xml: 'text',
  ics: 'text',
  vcf: 'text',
  pdf: 'pdf',
  zip: 'zip',
}

/**
 * What a file is, by the name the browser saved it under (decoded, RFC 6266 and all) and then its
 * type: a name ending as a program, shortcut or script is a program whatever its type says — the
 * same endings the download gate judges (src/core/step-place.ts `kExecutableExtensions`).
 */
export function servedKind(name: string, mimeType = ''): ServedKind {
  const ending = fileExtension(name)
  if (kExecutableExtensions.has(ending)) return 'program'
  const byName = kTextEndings[ending]
  if (byName) return byName
  const type = mimeType.split(';')[0].trim().toLowerCase()
  if (type === 'text/csv') return 'csv'
  if (type === 'text/tab-separated-values') return 'tsv'
  if (type === 'application/json' || type.endsWith('+json')) return 'json'
  if (type === 'application/pdf') return 'pdf'
  if (type === 'application/zip' || type === 'application/x-zip-compressed') return 'zip'
  if (type === 'text/plain') return 'text'
  return 'other'
}

/** Characters of one file the model reads in one step (~7,500 tokens): past it, the rest is said to be cut. */
export const kMaxServedTextChars = 30_000
/** Entries of a ZIP listed by name and size: past it, how many more there are. */
export const kMaxZipEntries = 200

/** Text bytes as a reader's program would open them: UTF-8, or UTF-16 when a byte order mark says so. */
export function decodeText(bytes: Uint8Array): string {
  const utf16 =
    bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'utf-16le'
      : bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : null
  return new TextDecoder(utf16 ?? 'utf-8').decode(bytes)
}

export interface ZipEntry {
  name: string
  size: number
}

/** A ZIP's entries from its central directory, none of them inflated; throws on what is no ZIP. */
export function zipEntries(bytes: Uint8Array): ZipEntry[] {
  const entries: ZipEntry[] = []
  unzipSync(bytes, {
    filter: (f) => {
      if (!f.name.endsWith('/')) entries.push({ name: f.name, size: f.originalSize })
      return false
    },
  })
  return entries
}

/** What the model is told a file holds: its text, bounded; the words of a ZIP's list; or why not. */
export type ServedContent =
  | { text: string }
  | { entries: ZipEntry[] }
  | { unreadable: 'program' | 'other' | 'broken' | 'unfetched' | 'noText'; why?: string }

/**
 * The text of a CSV, TSV, JSON or text file, or a ZIP's entries. A PDF's text comes from the
 * background's pdf.js (src/background/pdf-text.ts) and is passed in as `pdfText`.
 */
export function readServed(file: ServedFile, bytes: Uint8Array | null, pdfText?: string): ServedContent {
  const kind = servedKind(file.name, file.mimeType)
  if (kind === 'program') return { unreadable: 'program' }
  if (!bytes) return { unreadable: 'unfetched', ...(file.unread ? { why: file.unread } : {}) }
  switch (kind) {
    case 'csv':
    case 'tsv':
    case 'text':
      return { text: decodeText(bytes) }
    case 'json': {
      const text = decodeText(bytes)
      try {
        // Re-indented so a one-line export reads as rows; text that is no JSON is given as it is.
        return { text: JSON.stringify(JSON.parse(text), null, 1) }
      } catch {
        return { text }
      }
    }
    case 'pdf':
      return pdfText === undefined
        ? { unreadable: 'broken' }
        : pdfText.trim()
          ? { text: pdfText }
          : { unreadable: 'noText' }
    case 'zip':
      try {
        return { entries: zipEntries(bytes) }
      } catch {
        return { unreadable: 'broken' }
      }
    default:
      return { unreadable: 'other' }
  }
}

const kUnreadable: Record<Extract<ServedContent, { unreadable: unknown }>['unreadable'], string> = {
  program: 'it is a program or script by its name, and Ava neither reads nor uploads those',
  other: 'Ava reads CSV, TSV, JSON, text and PDF files, and lists the entries of a ZIP; this is none of these',
  broken: 'its bytes are not the kind of file its name says',
  unfetched: 'Ava could not get its bytes again',
  noText: 'it holds no text (a scan or a picture); Ava does not read pictures in files',
}

/**
 * The step's result: the file's name, kind, size and site, then what it holds with every saved
 * secret cut out in any shape (`hidden`: the vault and what the run typed), bounded. The whole of
 * it goes back to the model inside the page block (prompt.ts `buildFollowUp`).
 */
export function servedReport(
  file: ServedFile,
  content: ServedContent,
  hidden: readonly string[],
): {
  ok: boolean
  detail: string
} {
  const head = `File "${file.name}" (${servedKind(file.name, file.mimeType)}, ${formatSize(file.size)}, served by ${urlHost(file.site) ?? file.site})`
  if ('unreadable' in content)
    return {
      ok: false,
      detail: `${head} was not read: ${kUnreadable[content.unreadable]}${content.why ? ` (${content.why})` : ''}.`,
    }
  if ('entries' in content) {
    const shown = content.entries.slice(0, kMaxZipEntries)
    const lines = shown.map((e) => `- ${redactShapes(e.name, hidden)} (${formatSize(e.size)})`)
    if (content.entries.length > shown.length) lines.push(`(${content.entries.length - shown.length} more entries)`)
    return {
      ok: true,
      detail: [
        `${head} is a ZIP of ${content.entries.length} files; their contents were not read, only listed:`,
        ...lines,
      ].join('\n'),
    }
  }
  const text = redactShapes(content.text, hidden)
  const cut = text.length > kMaxServedTextChars
  return {
    ok: true,
    detail: [
      `${head} holds:`,
      cut ? text.slice(0, kMaxServedTextChars) : text,
      ...(cut ? [`(cut: the first ${kMaxServedTextChars} of ${text.length} characters)`] : []),
    ].join('\n'),
  }
}

/** The served file a step's value names (as an attached file is named: exactly, then ignoring case, a path by its last part). */
export function pickServed(value: string, files: ServedFile[]): ServedFile | null {
  const picked = pickAttachments(value, files)
  return picked?.length === 1 ? picked[0] : null
}

/** Why a step's value named no served file, naming those there are. */
export function unmatchedServed(value: string, files: ServedFile[]): string {
  if (!files.length)
    return `No page has downloaded a file during this run, so there is no "${value}" to read. Click the page's download or export link first.`
  return `No file downloaded during this run is named "${value}". Downloaded: ${files.map((f) => `"${f.name}"`).join(', ')}.`
}

/**
 * The file name a `Content-Disposition` gives (RFC 6266 §4.3: `filename*`, RFC 8187-encoded,
 * wins over `filename`), path parts dropped; null when it names none. Only for a download the
 * browser saved under a name of its own choosing (an automation driver's generated one): the
 * name Chrome decoded and saved under is otherwise the file's name.
 */
export function dispositionName(header: string | null): string | null {
  if (!header) return null
  const star = /filename\*\s*=\s*([\w!#$&+.^`|~-]+)'[\w-]*'([^;\s]+)/i.exec(header)
  if (star) {
    try {
      const bytes = Uint8Array.from(
        star[2].replace(/%([0-9a-f]{2})|./gis, (m, h) => String.fromCharCode(h ? parseInt(h, 16) : m.charCodeAt(0))),
        (c) => c.charCodeAt(0),
      )
      const name = new TextDecoder(star[1].toLowerCase() === 'iso-8859-1' ? 'latin1' : 'utf-8', { fatal: true }).decode(
        bytes,
      )
      if (name.trim()) return lastPart(name)
    } catch {
      // an encoding that does not decode: the plain filename, if any
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header)
  const name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]) : ''
  return name.trim() ? lastPart(name) : null
}

const lastPart = (name: string) => name.split(/[\\/]/).pop()!.trim()

/** A name a browser driver gives a download it saves (a UUID with no ending): not the file's own. */
export const isGeneratedName = (name: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(name)

/** A download as the browser reports it (chrome.downloads.DownloadItem's fields Ava reads). */
export interface DownloadFacts {
  url: string
  finalUrl?: string
  referrer?: string
}

/**
 * The origin that served a download: its final address's, or — for a `blob:` or `data:` file the
 * page made in script — the page's (a `blob:` URL carries the origin that made it; a `data:` one
 * only the referrer). Null when nothing says.
 */
export function servingOrigin(d: DownloadFacts): string | null {
  const origin = (u: string | undefined): string | null => {
    if (!u) return null
    try {
      const o = new URL(u).origin
      return /^https?:/.test(o) ? o : null
    } catch {
      return null
    }
  }
  const final = d.finalUrl || d.url
  if (/^data:/i.test(final)) return origin(d.referrer)
  return origin(final) ?? origin(d.referrer)
}

/**
 * The run a download belongs to: the one whose tab shows a page of the site that started it (its
 * referrer) or served it. None when no run's tab is on either — a download of another tab, or of
 * the person's own browsing, is not the run's to read.
 */
export function runOfDownload<R extends { tabUrl: string }>(d: DownloadFacts, runs: readonly R[]): R | null {
  const sites = [d.referrer, servingOrigin(d)].filter((s): s is string => !!s && /^https?:/i.test(s))
  for (const r of runs) if (/^https?:/i.test(r.tabUrl) && sites.some((s) => sameSite(s, r.tabUrl))) return r
  return null
}
