/**
 * The person takes the wheel (docs/agent.md, "Taking over"): the run waits while they act on the
 * page by hand, and on Resume the model is told what changed since they took it. What changed is
 * the page's own words, so it goes to the model inside the untrusted block, like any listing.
 */
import { z } from 'zod'
import { clipped, kMaxTitleChars, kMaxUrlChars, untrusted, type PageContext } from './prompt'

/** Why the person has the wheel: they paused the run, the model's `ask` offered it, or the page asks for a code or CAPTCHA. */
export const TakeoverReasonSchema = z.enum(['paused', 'asked', 'challenge'])
export type TakeoverReason = z.infer<typeof TakeoverReasonSchema>

/** The page as it was when the person took it, kept in the run's state so a restarted worker still has it. */
export const PageSeenSchema = z.object({ url: z.string(), title: z.string(), listing: z.string() })
export type PageSeen = z.infer<typeof PageSeenSchema>

/** A listing is at most some 16,000 characters (4,000 tokens); kept whole, it fits session storage many times. */
export function pageSeen(page: PageContext): PageSeen {
  return { url: page.url, title: page.title, listing: page.listing }
}

/** Entries of each kind the model is told at most: a page that changed wholesale is said so, not listed. */
const kMaxEntries = 20
/** Characters of one text line or element token in the report. */
const kEntryChars = 160

/** `input_code[required]="Code"`, `select_near_742=shipped`, `btn_send "Send"`: one listed element, keyed by its id. */
const kElementToken =
  /(?<![^\s])([a-z][a-z0-9]*_[^\s=["]+)(\[[^\]]*\])?(=(?:"(?:[^"\\]|\\.)*"|\S+))?(?: ("(?:[^"\\]|\\.)*"))?/gu
/** A content line of the listing: `h1: Orders`, `p: …`, the page summary. */
const kContentLine = /^(?:[a-z][a-z0-9]*: |Page ")/u
const kRowPrefix = /^row "(?:[^"\\]|\\.)*": /u

interface Parsed {
  elements: Map<string, string>
  text: string[]
}

function parse(listing: string): Parsed {
  const elements = new Map<string, string>()
  const text: string[] = []
  for (const raw of listing.split('\n')) {
    const line = raw.trim()
    if (!line || line.startsWith('#') || line.startsWith('(')) continue
    if (kContentLine.test(line)) {
      text.push(line)
      continue
    }
    for (const m of line.replace(kRowPrefix, '').matchAll(kElementToken)) elements.set(m[1], m[0])
  }
  return { elements, text }
}

function capped(label: string, entries: string[]): string[] {
  if (!entries.length) return []
  const shown = entries.slice(0, kMaxEntries).map((e) => `  ${clipped(e, kEntryChars)}`)
  const more = entries.length - shown.length
  return [`${label} (${entries.length}):`, ...shown, ...(more > 0 ? [`  (${more} more not shown)`] : [])]
}

/** What changed between two readings of a page: address, title, and the listing's elements and text, compactly. */
export function pageChanges(before: PageSeen, after: PageSeen): string[] {
  const lines: string[] = []
  if (before.url !== after.url)
    lines.push(`URL: ${clipped(before.url, kMaxUrlChars)} -> ${clipped(after.url, kMaxUrlChars)}`)
  else lines.push(`URL unchanged: ${clipped(after.url, kMaxUrlChars)}`)
  if (before.title !== after.title)
    lines.push(`Title: ${clipped(before.title, kMaxTitleChars)} -> ${clipped(after.title, kMaxTitleChars)}`)
  const a = parse(before.listing)
  const b = parse(after.listing)
  const added = [...b.elements].filter(([id]) => !a.elements.has(id)).map(([, t]) => t)
  const removed = [...a.elements].filter(([id]) => !b.elements.has(id)).map(([, t]) => t)
  const changed = [...b.elements]
    .filter(([id, t]) => a.elements.has(id) && a.elements.get(id) !== t)
    .map(([id, t]) => `${a.elements.get(id)} -> ${t}`)
  const textBefore = new Set(a.text)
  const textAfter = new Set(b.text)
  lines.push(
    ...capped('Elements added', added),
    ...capped('Elements removed', removed),
    ...capped('Elements changed', changed),
    ...capped(
      'Text added',
      b.text.filter((t) => !textBefore.has(t)),
    ),
    ...capped(
      'Text gone',
      a.text.filter((t) => !textAfter.has(t)),
    ),
  )
  if (!added.length && !removed.length && !changed.length && lines.length <= 2)
    lines.push('The listed elements and text are the same as before.')
  return lines
}

/** The person handed the page back: why they had it, and the page as it was when they took it. */
export interface HandBack {
  report: Omit<TakeoverReport, 'changes'>
  before: PageSeen
}

/** What the model is told when the person hands the page back. */
export interface TakeoverReport {
  reason: TakeoverReason
  /** The model's step the person paused before: it did not run, nor anything after it in that reply. */
  pausedBefore?: { index: number; description?: string }
  /** With `asked`: the model's question, which the person chose to do themselves. */
  question?: string
  /** With `challenge`: what the page asked for. */
  challenge?: 'code' | 'captcha'
  changes: string[]
}

/** The person's hand-back in the model's words: who did what is Ava's to say; what changed is the page's, inside the block. */
export function describeTakeover(t: TakeoverReport): string {
  const why =
    t.reason === 'paused'
      ? `The person paused you${t.pausedBefore ? ` before your step ${t.pausedBefore.index + 1}, which did not run, nor any step after it in that reply` : ''}. They may have acted on the page by hand meanwhile.`
      : t.reason === 'asked'
        ? 'You asked the person something; they chose to do it themselves on the page.'
        : t.challenge === 'captcha'
          ? 'The page showed a CAPTCHA, which is the person’s to solve, so Ava handed them the page.'
          : 'The page asked for a one-time code (sent to the person’s phone, e-mail or app), which only they have, so Ava handed them the page. Never type a code yourself that the person did not give you.'
  return [
    `${why} They have now pressed Resume and handed the page back to you.`,
    'What changed on the page while they had it (the page’s words):',
    untrusted(t.changes),
    'Go on from the page as it is now (below); do not redo what the person already did.',
  ].join('\n')
}
