import { z } from 'zod'
import { AvaError } from '../errors'
import type { UploadFile } from '../page/command'

/**
 * Files the person attached to a request in the panel: the run
 * keeps their bytes for `upload` steps, the model is told only their names, types and sizes, and
 * an `upload` step's `value` names one of them. They belong to that one request: the run that
 * ends drops them.
 */

/** One file as the panel picked it. */
export type Attachment = UploadFile & { size: number }
/** What the run records and the model is told: never the bytes. */
export const AttachmentInfoSchema = z.object({
  name: z.string(),
  size: z.number().int().nonnegative(),
  mimeType: z.string().optional(),
})
export type AttachmentInfo = z.infer<typeof AttachmentInfoSchema>
export const AttachmentSchema = AttachmentInfoSchema.extend({ base64: z.string() })
/**
 * A file as the background holds it: with the origin of the page the person attached it on, set
 * by the background (never by the panel's message), so an upload on another site asks
 * (src/core/step-place.ts, `uploadRefusal`).
 */
export const HeldAttachmentSchema = AttachmentSchema.extend({ site: z.string().optional() })

/** The files of a request, each bound to the site it was attached on. */
export function placeAttachments(files: Attachment[], site: string | null): Attachment[] {
  return site ? files.map((f) => ({ ...f, site })) : files
}

/** 10 MB a file: a CV, a scan, a spreadsheet; what most upload forms accept (docs/agent.md). */
export const kMaxAttachmentBytes = 10 * 1024 * 1024
/** Files a request may carry, and their total: one runtime message to the page holds them as base64. */
export const kMaxAttachments = 10
export const kMaxAttachmentsTotalBytes = 25 * 1024 * 1024

export function infoOf(a: Attachment): AttachmentInfo {
  return { name: a.name, size: a.size, ...(a.mimeType ? { mimeType: a.mimeType } : {}) }
}

/** "12.3 KB": how the panel's chips and the prompt give a size. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/**
 * Refuses what the panel should not have sent (it checks the same limits in the person's
 * language first): too many, too large, nameless, duplicate names, or bytes that do not match the
 * size they claim.
 */
export function checkAttachments(raw: unknown): Attachment[] {
  const parsed = z.array(AttachmentSchema).safeParse(raw ?? [])
  if (!parsed.success) throw new AvaError('UNKNOWN', 'The attached files did not arrive as files; attach them again.')
  const files = parsed.data
  if (files.length > kMaxAttachments)
    throw new AvaError('UNKNOWN', `Attach at most ${kMaxAttachments} files to one request.`)
  const names = new Set<string>()
  let total = 0
  for (const f of files) {
    if (!f.name) throw new AvaError('UNKNOWN', 'An attached file has no name.')
    if (names.has(f.name))
      throw new AvaError('UNKNOWN', `Two attached files are named "${f.name}"; attach one of them.`)
    names.add(f.name)
    if (f.size > kMaxAttachmentBytes)
      throw new AvaError(
        'UNKNOWN',
        `"${f.name}" is ${formatSize(f.size)}; attached files may be at most ${formatSize(kMaxAttachmentBytes)}.`,
      )
    // base64 is 4 characters for every 3 bytes, padded to a multiple of 4.
    if (f.base64.length !== Math.ceil(f.size / 3) * 4)
      throw new AvaError('UNKNOWN', `"${f.name}" did not arrive whole; attach it again.`)
    total += f.size
  }
  if (total > kMaxAttachmentsTotalBytes)
    throw new AvaError(
      'UNKNOWN',
      `The attached files come to ${formatSize(total)}; one request may carry at most ${formatSize(kMaxAttachmentsTotalBytes)}.`,
    )
  return files
}

/** What the attached files are called, for a message. */
export function listNames(files: AttachmentInfo[]): string {
  return files.length ? files.map((f) => `"${f.name}"`).join(', ') : 'no files'
}

/**
 * The attached files an upload step's value names: one name, or several separated by commas,
 * semicolons or new lines (a `multiple` input). Matched exactly, then ignoring case; a path
 * ("C:\fakepath\cv.pdf") counts by its last part. Null when any name matches nothing.
 */
export function pickAttachments<T extends AttachmentInfo>(value: string, files: T[]): T[] | null {
  const one = (raw: string): T | undefined => {
    const name = raw
      .trim()
      .replace(/^["'“‘「『]+|["'”’」』]+$/g, '')
      .trim()
    const base = name.split(/[\\/]/).pop() ?? name
    for (const n of [name, base]) {
      const exact = files.find((f) => f.name === n)
      if (exact) return exact
      const folded = files.filter((f) => f.name.toLowerCase() === n.toLowerCase())
      if (folded.length === 1) return folded[0]
    }
    return undefined
  }
  const whole = one(value)
  if (whole) return [whole]
  const parts = value.split(/[,;\n，；、]/).filter((p) => p.trim())
  if (parts.length < 2) return null
  const picked = parts.map(one)
  return picked.every((f): f is T => !!f) ? [...new Set(picked)] : null
}

/** Why an upload step's value matched no attached file, naming what is attached. */
export function unmatchedMessage(value: string, files: AttachmentInfo[]): string {
  if (!files.length)
    return `upload needs the file itself ("${value}"): no file is attached to this request. Attach it with the panel's attach button and ask again.`
  return `No attached file is named "${value}". Attached: ${listNames(files)}. Write one of these names as the upload step's value.`
}

/**
 * The files an upload step gets: those its value names among the attached ones,
 * with their bytes. `attached` is what the run recorded; `held` the bytes still at hand.
 */
export function resolveUpload(
  value: string,
  attached: AttachmentInfo[],
  held: Attachment[],
): { files: UploadFile[] } | { error: string } {
  const picked = pickAttachments(value, attached)
  if (!picked) return { error: unmatchedMessage(value, attached) }
  const files: UploadFile[] = []
  for (const p of picked) {
    const f = held.find((h) => h.name === p.name)
    if (!f)
      return {
        error: `"${p.name}" is no longer at hand: Ava's background restarted, and the file was too large to keep across that. Attach it again and ask again.`,
      }
    files.push({
      name: f.name,
      base64: f.base64,
      ...(f.mimeType ? { mimeType: f.mimeType } : {}),
      ...(f.site ? { site: f.site } : {}),
      ...(f.served ? { served: true } : {}),
    })
  }
  return { files }
}
