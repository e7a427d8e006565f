import browser from 'webextension-polyfill'
import { z } from 'zod'
import type { ExecOutcome } from '../core/exec'
import type { PageCommand } from '../core/page/command'
import { sendToTab } from '../messaging'
import { typedKey } from '../storage/area'
import { settingsStore } from '../storage/settings'
import { mayRead } from './frames'

/**
 * A check looks where the form was. A form in a cross-origin frame answers in that frame: often
 * on the page the frame loads after the submit, sometimes in a frame nested inside it, which the
 * top document cannot read. A `verify` that the top document does not hold is looked for, then,
 * in every frame a step of this tab acted in and in the frames below each one, whatever document
 * each shows now. Only those: a success message in another frame (an advertisement, a frame the
 * page added) proves nothing about the form. A frame of a site Ava may not act on is not read.
 */

const kMaxActedFrames = 8 // the frames of one tab a check may look into, besides the ones nested below them

interface ActedFrames {
  frameIds: number[]
}
const ActedFramesSchema = z.object({ frameIds: z.array(z.number().int()) })
/** In session storage, as the worker may stop between a step and the check after it. */
const actedStore = (tabId: number) =>
  typedKey<ActedFrames>('session', `frames-acted:${tabId}`, ActedFramesSchema, () => ({ frameIds: [] }))

/** Notes that a step ran in a frame of the tab (src/background/page.ts `sendToFrame`). */
export async function noteActedFrame(tabId: number, frameId: number): Promise<void> {
  const store = actedStore(tabId)
  const { frameIds } = await store.get()
  if (frameIds.includes(frameId)) return
  await store.set({ frameIds: [...frameIds, frameId].slice(-kMaxActedFrames) })
}

export async function forgetActedFrames(tabId: number): Promise<void> {
  await actedStore(tabId).remove()
}

/** The frames a check looks into: those acted in that still exist, and every frame nested below them. */
async function framesToCheck(tabId: number): Promise<{ frameId: number; url: string }[]> {
  const { frameIds } = await actedStore(tabId).get()
  if (!frameIds.length) return []
  const all = (await browser.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? []
  const inside = new Set(frameIds.filter((id) => all.some((f) => f.frameId === id)))
  // Parents come before children in no promised order: grow the set until it stops growing.
  for (let grew = true; grew;) {
    grew = false
    for (const f of all)
      if (!inside.has(f.frameId) && inside.has(f.parentFrameId)) {
        inside.add(f.frameId)
        grew = true
      }
  }
  const { safety } = await settingsStore.get()
  const sites = { allow: safety.allowDomains, deny: safety.denyDomains }
  return all.filter((f) => f.frameId !== 0 && inside.has(f.frameId) && mayRead(f.url, sites))
}

/**
 * A `verify` the top document failed, asked of the frames where the steps acted. The first frame
 * that holds the words answers; when none does, null (the top document's failure stands).
 */
export async function verifyInFrames(
  tabId: number,
  command: PageCommand<'act'>,
  signal?: AbortSignal,
): Promise<ExecOutcome | null> {
  const frames = await framesToCheck(tabId)
  if (!frames.length || signal?.aborted) return null
  const asked = frames.map(async (f) => {
    const out = (await sendToTab(tabId, 'bg→content:command', command, { frameId: f.frameId })) as ExecOutcome
    if (!out.ok) throw new Error(out.message)
    const host = new URL(f.url).host || f.url
    return { ...out, detail: `${out.detail} (in the frame of ${host})` }
  })
  return Promise.any(asked).catch(() => null)
}
