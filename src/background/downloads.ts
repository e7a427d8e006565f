import { z } from 'zod'
import { kMaxAttachmentBytes } from '../core/agent/attachments'
import type { ServedFilesPort } from '../core/agent/ports'
import {
  ServedFileSchema,
  dispositionName,
  isGeneratedName,
  runOfDownload,
  servingOrigin,
  type DownloadFacts,
  type ServedFile,
} from '../core/agent/served-files'
import { typedKey } from '../storage/area'
import { pdfText } from './pdf-text'

/**
 * Files pages download during a run (docs/agent.md, "Files the page hands over"). Seeing them needs
 * the optional `downloads` permission, asked for only when the person first wants it (Options,
 * "Downloaded files"); without it nothing here listens and the run says what it cannot see.
 *
 * A finished download is bound to the run whose tab is on the site that started or served it
 * (core `runOfDownload`); its bytes are fetched again from the address it came from — an extension
 * cannot read the person's Downloads folder — with the person's cookies, as the page's own
 * request went. A `blob:` file lives in the page's memory and is listed without its bytes. The
 * file stays where the browser saved it: Ava never deletes or moves a download.
 */

const kPermission = { permissions: ['downloads'] as chrome.runtime.ManifestPermission[] }

/** How long a run's turn waits for a download in flight to finish before reading its files. */
const kInFlightWaitMs = 10_000
/** Base64 characters of a run's served files kept in session storage across a worker restart (its 10 MB are shared). */
const kSessionBudgetChars = 3_000_000

const HeldSchema = z.object({ file: ServedFileSchema, base64: z.string().optional() })
type Held = z.infer<typeof HeldSchema>
const heldStore = (runId: string) => typedKey<Held[]>('session', `served:${runId}`, z.array(HeldSchema), () => [])

interface RunFiles {
  files: { file: ServedFile; bytes: Uint8Array | null }[]
  inFlight: Set<number>
  settled: Array<() => void>
}
const byRun = new Map<string, RunFiles>()
const downloadRun = new Map<number, string>()

export async function downloadsAllowed(): Promise<boolean> {
  return chrome.permissions.contains(kPermission).catch(() => false)
}

function entry(runId: string): RunFiles {
  let e = byRun.get(runId)
  if (!e) byRun.set(runId, (e = { files: [], inFlight: new Set(), settled: [] }))
  return e
}

function settle(e: RunFiles, id: number): void {
  e.inFlight.delete(id)
  if (e.inFlight.size) return
  for (const done of e.settled.splice(0)) done()
}

/** The bytes again, from where the download came; null when they cannot be had (and why). */
async function refetch(
  item: chrome.downloads.DownloadItem,
): Promise<{ bytes: Uint8Array | null; why?: string; served?: string | null }> {
  const url = item.finalUrl || item.url
  if (/^blob:/i.test(url)) return { bytes: null, why: 'the page made it in its own memory' }
  if (!/^(https?|data):/i.test(url)) return { bytes: null, why: 'it did not come from a web address' }
  if (item.fileSize > kMaxAttachmentBytes) return { bytes: null, why: 'it is larger than 10 MB' }
  try {
    const res = await fetch(url, { credentials: 'include', ...(item.referrer ? { referrer: item.referrer } : {}) })
    if (!res.ok) return { bytes: null, why: `the site answered HTTP ${res.status} when asked again` }
    const buf = new Uint8Array(await res.arrayBuffer())
    if (buf.length > kMaxAttachmentBytes) return { bytes: null, why: 'it is larger than 10 MB' }
    return { bytes: buf, served: dispositionName(res.headers.get('content-disposition')) }
  } catch {
    return { bytes: null, why: 'the site could not be reached again' }
  }
}

const baseName = (path: string) => path.split(/[\\/]/).pop() || path

/**
 * The name the browser saved the file under (decoded by Chrome, RFC 6266 and all) — unless a
 * browser driver had it saved under a generated name, when the server's own name, then the
 * address's last segment, stands in.
 */
function nameOf(item: chrome.downloads.DownloadItem, served: string | null | undefined): string {
  const saved = baseName(item.filename)
  if (!isGeneratedName(saved)) return saved
  let seg = ''
  try {
    seg = decodeURIComponent(new URL(item.finalUrl || item.url).pathname.split('/').pop() ?? '')
  } catch {
    // an address that does not decode names nothing
  }
  return served || seg || saved
}

/**
 * Listens for downloads while the permission is held (now, or from when the person grants it).
 * `runs` lists the runs in flight with the address their tab shows.
 */
export function watchDownloads(runs: () => Promise<{ id: string; tabUrl: string }[]>): void {
  let listening = false
  const listen = () => {
    if (listening || !chrome.downloads) return
    listening = true
    chrome.downloads.onCreated.addListener((item) => {
      void (async () => {
        const facts: DownloadFacts = { url: item.url, finalUrl: item.finalUrl, referrer: item.referrer }
        const run = runOfDownload(facts, await runs())
        if (!run) return
        downloadRun.set(item.id, run.id)
        entry(run.id).inFlight.add(item.id)
      })()
    })
    chrome.downloads.onChanged.addListener((delta) => {
      const state = delta.state?.current
      if (state !== 'complete' && state !== 'interrupted') return
      void (async () => {
        const [item] = await chrome.downloads.search({ id: delta.id })
        let runId = downloadRun.get(delta.id)
        if (!runId && item) {
          runId = runOfDownload({ url: item.url, finalUrl: item.finalUrl, referrer: item.referrer }, await runs())?.id
        }
        downloadRun.delete(delta.id)
        if (!runId) return
        const e = entry(runId)
        try {
          if (state !== 'complete' || !item) return
          const site = servingOrigin({ url: item.url, finalUrl: item.finalUrl, referrer: item.referrer })
          if (!site) return
          const got = await refetch(item)
          const file: ServedFile = {
            name: nameOf(item, got.served),
            size: got.bytes?.length ?? Math.max(0, item.fileSize),
            site,
            ...(item.mime ? { mimeType: item.mime } : {}),
            ...(got.why ? { unread: got.why } : {}),
          }
          // A page that downloads the same name twice: the newer file is the one meant.
          e.files = [...e.files.filter((f) => f.file.name !== file.name), { file, bytes: got.bytes }]
          await keep(runId, e)
        } finally {
          settle(e, delta.id)
        }
      })()
    })
  }
  listen()
  chrome.permissions.onAdded.addListener((p) => {
    if (p.permissions?.includes('downloads')) listen()
  })
}

async function keep(runId: string, e: RunFiles): Promise<void> {
  let budget = kSessionBudgetChars
  const rows: Held[] = e.files.map(({ file, bytes }) => {
    const base64 = bytes ? toBase64(bytes) : undefined
    return base64 && (budget -= base64.length) >= 0 ? { file, base64 } : { file }
  })
  await heldStore(runId)
    .set(rows)
    .catch(() => undefined)
}

function toBase64(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(s)
}

function fromBase64(b64: string): Uint8Array {
  const s = atob(b64)
  const out = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i)
  return out
}

/** The run's files: this worker's, or those session storage kept across a restart. */
async function filesOf(runId: string): Promise<RunFiles> {
  const e = entry(runId)
  if (e.inFlight.size)
    await new Promise<void>((resolve) => {
      e.settled.push(resolve)
      setTimeout(resolve, kInFlightWaitMs)
    })
  if (!e.files.length) {
    const stored = await heldStore(runId).get()
    e.files = stored.map((h) => ({ file: h.file, bytes: h.base64 ? fromBase64(h.base64) : null }))
  }
  return e
}

/** The run's port onto its served files. */
export function servedFilesPort(runId: string): ServedFilesPort {
  return {
    allowed: downloadsAllowed,
    list: async () => (await filesOf(runId)).files.map((f) => f.file),
    bytes: async (name) => (await filesOf(runId)).files.find((f) => f.file.name === name)?.bytes ?? null,
    pdfText,
  }
}

export async function dropServed(runId: string): Promise<void> {
  byRun.delete(runId)
  await heldStore(runId).remove()
}
