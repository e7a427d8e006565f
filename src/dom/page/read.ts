import type { ExecFailure } from '../../core/exec'
import { findChallenge } from '../challenge'
import type { PageCommand, PageInfo, PageOutcome } from '../../core/page/command'
import { listedIntents, serialize } from '../../core/page/serialize'
import { kReadSliceMs, observeYielding, waitForReady, yieldToPage, type PendingRequestSource } from '../observe'

/**
 * A read of the page, on its own: the scanner and the listing, without the executor, the gate and
 * the recorder. The content script loads this much for a page's first read, which is what a person
 * waits for, and the whole page agent (receiver.ts) only for the first command that is not a read
 * (docs/page-representation.md, "The first read").
 */

/** The in-flight request count of this frame, as the background last told it (no polling). */
export type RequestCount = PendingRequestSource & { set(n: number): void }

export function createRequestCount(): RequestCount {
  let count = 0
  const listeners = new Set<() => void>()
  return {
    pending: () => count,
    subscribe(onChange) {
      listeners.add(onChange)
      return () => listeners.delete(onChange)
    },
    set(n) {
      if (n === count) return
      count = n
      for (const l of listeners) l()
    },
  }
}

/**
 * The one count of this frame: a read that began before the page agent loaded still hears of the
 * requests the background reports to the agent afterwards.
 */
export const frameRequests = createRequestCount()

/** The ids the last read of this frame listed (the marks of a screenshot are drawn on them). */
let lastListed: string[] = []

export function lastListedIds(): string[] {
  return lastListed
}

export function noteListed(ids: string[]): void {
  lastListed = ids
}

/** `read`: waits for the page to be ready when asked to, then lists it. */
export async function readPage(
  { request, settle, pending, sections }: PageCommand<'read'>,
  requests: RequestCount = frameRequests,
): Promise<PageInfo> {
  let note = ''
  if (settle) {
    if (pending !== undefined) requests.set(pending)
    const ready = await waitForReady({ requests })
    if (!ready.ready)
      note += `(The page was still changing after ${Math.round(ready.waitedMs / 1000)} s; this is how it looked then.)\n`
    if (ready.errors.length) note += `(The page reported errors: ${ready.errors.slice(0, 3).join(' | ')})\n`
  }
  // A read gives the page its turn between parts that run long (a large page), never on a quick one.
  const t0 = performance.now()
  const snapshot = await observeYielding({ request })
  if (performance.now() - t0 > kReadSliceMs) await yieldToPage()
  const { text, ids } = serialize(snapshot, { request, ...(sections ? { contentSections: sections } : {}) })
  lastListed = ids
  const info: PageInfo = {
    url: location.href,
    title: document.title,
    listing: note + text,
    intents: listedIntents(snapshot.intents, ids),
  }
  // After the scan: the code fields are named by the ids it just listed.
  const challenge = findChallenge(document)
  if (challenge) info.challenge = challenge
  // Cross-origin frames are read by our content script inside each of them; the background merges
  // their snapshots into this one and lists the whole again (background/frames.ts).
  if (snapshot.frames.some((f) => f.status === 'cross_origin_restricted')) Object.assign(info, { snapshot, note })
  return info
}

/** `frame.read`: a subframe's snapshot, for the top frame's background to merge. */
export async function readFrame({ request }: PageCommand<'frame.read'>) {
  const snapshot = await observeYielding({ request })
  lastListed = snapshot.elements.map((e) => e.id)
  return { ok: true as const, snapshot }
}

/** The commands a frame answers with the reader alone. */
export type ReadKind = 'read' | 'frame.read'

export function isRead(command: PageCommand): command is PageCommand<ReadKind> {
  return command.kind === 'read' || command.kind === 'frame.read'
}

/**
 * A read command answered as the receiver answers it, failures as data (STYLE.md): the content
 * script's first read goes here before the page agent is loaded.
 */
export async function answerRead(command: PageCommand<ReadKind>): Promise<PageOutcome<ReadKind>> {
  try {
    if (command.kind === 'frame.read') return await readFrame(command as PageCommand<'frame.read'>)
    return { ok: true, info: await readPage(command as PageCommand<'read'>) }
  } catch (e) {
    const failure: ExecFailure = {
      ok: false,
      code: 'NOT_ACTIONABLE',
      message: `${command.kind} failed: ${(e as Error)?.message ?? String(e)}`,
    }
    return failure
  }
}
