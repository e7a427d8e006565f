import browser from 'webextension-polyfill'
import type { ExecOutcome } from '../core/exec'
import type { PageCommand } from '../core/page/command'
import { sendToTab } from '../messaging'
import { settingsStore } from '../storage/settings'
import { actedFrameIds, mayRead } from './frames'

export { noteActedFrame } from './frames'

/**
 * A check looks where the form was. A form in a cross-origin frame answers in that frame: often
 * on the page the frame loads after the submit, sometimes in a frame nested inside it, which the
 * top document cannot read. A `verify` that the top document does not hold is looked for, then,
 * in every frame a step of this tab acted in and in the frames below each one, whatever document
 * each shows now. Only those: a success message in another frame (an advertisement, a frame the
 * page added) proves nothing about the form. A frame of a site Ava may not act on is not read.
 */

/** The frames a check looks into: those acted in that still exist, and every frame nested below them. */
async function framesToCheck(tabId: number): Promise<{ frameId: number; url: string }[]> {
  const frameIds = await actedFrameIds(tabId)
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
