import { handle } from '../../messaging'
import { settingsStore } from '../../storage/settings'
import {
  addEvent,
  currentDraft,
  discardDraft,
  draftFromRun,
  exportFlow,
  listFlows,
  recordingState,
  replaySaved,
  reviewHeal,
  saveDraft,
  startRecording,
  stopRecording,
  watchRecordedTabs,
} from '../recorder'

/** Record and replay messages; the work is in ../recorder.ts. */

function tabOf(ctx: { tabId?: number }): number {
  if (ctx.tabId === undefined)
    throw Object.assign(new Error('This message must come from a tab.'), { code: 'FORBIDDEN' })
  return ctx.tabId
}

export function registerFlowHandlers(): void {
  watchRecordedTabs()

  handle('panel→bg:flow.record', ['panel'], async ({ on, name }, ctx) => {
    const tabId = tabOf(ctx)
    if (on) {
      await startRecording(tabId)
      return { ...(await recordingState(tabId)), draft: null }
    }
    const draft = await stopRecording(tabId, name)
    return { recording: false, events: 0, draft }
  })

  handle('panel→bg:flow.state', ['panel'], async (_req, ctx) => ({
    ...(await recordingState(tabOf(ctx))),
    draft: await currentDraft(tabOf(ctx)),
  }))

  handle('panel→bg:flow.fromRun', ['panel'], async (_req, ctx) => ({ draft: await draftFromRun(tabOf(ctx)) }))

  handle('panel→bg:flow.save', ['panel'], async ({ name, namespace }, ctx) => {
    const saved = await saveDraft(tabOf(ctx), name, namespace || undefined)
    return { id: saved.id, action: saved.action }
  })

  handle('panel→bg:flow.discard', ['panel'], async (_req, ctx) => {
    await discardDraft(tabOf(ctx))
    return { ok: true }
  })

  handle('panel→bg:flow.list', ['panel', 'popup', 'options'], async () => ({ flows: await listFlows() }))

  // The person replays it in the panel: the plan card as they asked for it (safety.showPlans).
  handle('panel→bg:flow.replay', ['panel'], async ({ id, params }, ctx) =>
    replaySaved(tabOf(ctx), id, params ?? {}, undefined, { plans: (await settingsStore.get()).safety.showPlans }),
  )

  handle('panel→bg:flow.heal', ['panel'], async ({ id, stepId, accept }) => ({
    ok: (await reviewHeal(id, stepId, accept)).ok,
  }))

  handle('panel→bg:flow.export', ['panel', 'popup', 'options'], async ({ id, format }) => exportFlow(id, format))

  // Only the top frame records: frames would report the same click twice.
  handle('content→bg:flow.event', ['tab'], async ({ event }, ctx) => ({
    ok: ctx.frameId === 0 ? await addEvent(tabOf(ctx), event) : false,
  }))
}
