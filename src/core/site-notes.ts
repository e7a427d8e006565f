/**
 * What the person wants on a site (docs/agent.md, "Site notes"): short notes in their own words
 * ("use the business account", "never pick express shipping"), kept per exact origin, as secrets
 * are (core/agent/secrets.ts `originOf`): a note for https://shop.example is never shown for
 * http://shop.example, https://pay.shop.example or any other site. They reach the model as the
 * person's words, beside the request and outside the untrusted page block, and only while the
 * run's page is on that origin.
 */
import { originOf, siteOrigin } from './agent/secrets'

/** Notes per origin, in the order the person wrote them. */
export type SiteNotes = Record<string, string[]>

/** A note is a sentence or two: longer text is cut here, so a paste cannot take over the prompt. */
export const kMaxNoteChars = 500
/** Notes kept per site. */
export const kMaxNotesPerSite = 20

/** Why a note cannot be kept (the code the person is told, src/core/failure.ts). */
export class SiteNoteError extends Error {
  override name = 'SiteNoteError'
  readonly code = 'SITE_NOTE_INVALID'
}

/** The origin a note is for, from what the person typed ("shop.example", "https://shop.example/cart"); throws when it is no web address. */
export function noteOrigin(site: string): string {
  const origin = siteOrigin(site)
  if (!origin) throw new SiteNoteError(`"${site}" is not a web site: write it as shop.example or https://shop.example.`)
  return origin
}

/** A note as kept: one line of plain text, control characters out, cut to kMaxNoteChars. */
export function cleanNote(text: string): string {
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim()
  if (!line) throw new SiteNoteError('A site note cannot be empty.')
  return line.length > kMaxNoteChars ? `${line.slice(0, kMaxNoteChars)}…` : line
}

/** The notes with one more for the site of `url`; the same note twice is kept once. */
export function addNote(notes: SiteNotes, site: string, text: string): SiteNotes {
  const origin = noteOrigin(site)
  const note = cleanNote(text)
  const have = notes[origin] ?? []
  if (have.includes(note)) return notes
  return { ...notes, [origin]: [...have, note].slice(-kMaxNotesPerSite) }
}

export function removeNote(notes: SiteNotes, origin: string, index: number): SiteNotes {
  const have = (notes[origin] ?? []).filter((_, i) => i !== index)
  const rest = { ...notes }
  if (have.length) rest[origin] = have
  else delete rest[origin]
  return rest
}

/** The notes for the page at `url`: its exact origin's, none for any other. */
export function notesFor(notes: SiteNotes, url: string): { origin: string; notes: string[] } | null {
  const origin = originOf(url)
  const found = origin ? notes[origin] : undefined
  return origin && found?.length ? { origin, notes: found } : null
}
