import { handle } from '../../messaging'
import { clearChat, loadChat, updateChat } from '../chat'
import { isRunning, startRun, stopRun } from '../runs'
import { markReady } from '../tabs'
import { issuePanelToken } from '../panels'

function tabOf(ctx: { tabId?: number }): number {
  if (ctx.tabId === undefined) throw Object.assign(new Error('This message must come from a tab.'), { code: 'FORBIDDEN' })
  return ctx.tabId
}

export function registerChatHandlers(): void {
  handle('content→bg:ready', ['tab'], async ({ url }, ctx) => {
    // Only the top frame's document takes steps; frames report for the Observe merge later.
    if (ctx.frameId === 0) markReady(tabOf(ctx), { documentId: ctx.documentId, url })
    const chat = await loadChat(tabOf(ctx))
    return { panelOpen: chat.panelOpen }
  })

  handle('content→bg:panel.token', ['tab'], async (_req, ctx) => ({ token: issuePanelToken(tabOf(ctx)) }))

  handle('content→bg:panel.state', ['tab'], async ({ open }, ctx) => {
    await updateChat(tabOf(ctx), (chat) => void (chat.panelOpen = open))
    return { open }
  })

  handle('panel→bg:run.start', ['panel'], async ({ text }, ctx) => ({ runId: await startRun(tabOf(ctx), text) }))

  handle('panel→bg:run.stop', ['panel'], async (_req, ctx) => ({ stopped: stopRun(tabOf(ctx)) }))

  handle('panel→bg:chat.load', ['panel'], async (_req, ctx) => {
    const chat = await loadChat(tabOf(ctx))
    return { messages: chat.messages, run: chat.run, seq: chat.seq }
  })

  handle('panel→bg:chat.clear', ['panel'], async (_req, ctx) => {
    if (isRunning(tabOf(ctx))) return { cleared: false }
    await clearChat(tabOf(ctx))
    return { cleared: true }
  })
}
