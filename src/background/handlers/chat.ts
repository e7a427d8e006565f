import browser from 'webextension-polyfill'
import { handle, sendToTab } from '../../messaging'
import { tabStore } from '../../storage/conversation'
import { recordsStore } from '../../storage/records'
import { uiPrefsStore } from '../../storage/settings'
import { answerAsk, isRunning, pauseRun, runView, startRun, stopRun } from '../agent'
import { clearHistory, conversationOf, readHistory } from '../conversation'
import { clearPanelBlocked, isPanelBlocked, issuePanelToken } from '../panels'
import { markReady } from '../tabs'
import { sendCommand } from '../page'
import { answerQuestion, stopQuestions } from '../questions'
import { mcpRunView, stopMcp } from '../mcp'

function tabOf(ctx: { tabId?: number }): number {
  if (ctx.tabId === undefined)
    throw Object.assign(new Error('This message must come from a tab.'), { code: 'FORBIDDEN' })
  return ctx.tabId
}

export function registerChatHandlers(): void {
  handle('content→bg:ready', ['tab'], async ({ url }, ctx) => {
    // Only the top frame's document takes steps.
    if (ctx.frameId === 0) {
      markReady(tabOf(ctx), { documentId: ctx.documentId, url })
      clearPanelBlocked(tabOf(ctx))
    }
    const [tab, ui] = await Promise.all([tabStore(tabOf(ctx)).get(), uiPrefsStore.get()])
    return { panelOpen: tab.panelOpen, runActive: isRunning(tabOf(ctx)), language: ui.language }
  })
  // The launcher's name follows a language picked in the options at once, in every open tab: told
  // here on the rare change, rather than every page listening to every storage write.
  uiPrefsStore.watch(({ language }) => {
    void browser.tabs.query({}).then((tabs) => {
      for (const t of tabs)
        if (t.id !== undefined) void sendToTab(t.id, 'bg→content:language', { language }).catch(() => undefined)
    })
  })

  handle('content→bg:panel.token', ['tab'], async (_req, ctx) => ({ token: issuePanelToken(tabOf(ctx)) }))

  handle('content→bg:panel.state', ['tab'], async ({ open }, ctx) => {
    await tabStore(tabOf(ctx)).set({ panelOpen: open })
    return { open }
  })

  handle('panel→bg:run.start', ['panel'], async ({ text, noCache, files, shape }, ctx) => ({
    runId: await startRun(tabOf(ctx), text, { noCache, files, shape }),
  }))

  handle('panel→bg:overlay', ['panel'], async ({ on, ids }, ctx) => {
    const out = await sendCommand(tabOf(ctx), { kind: 'overlay', on, ...(ids ? { ids: ids.slice(0, 50) } : {}) })
    return out.ok ? { on: out.on, elements: out.elements } : { on: false, elements: 0 }
  })

  // Stop also closes whatever question is open in the tab (a `/run` step's), as a no.
  handle('panel→bg:run.stop', ['panel'], async (_req, ctx) => ({
    stopped: [stopRun(tabOf(ctx)), stopMcp(tabOf(ctx)), stopQuestions(tabOf(ctx))].some(Boolean),
  }))
  // The popup is the extension's own page, out of every page's reach: its Stop works when a page
  // keeps the panel from coming up. Which tab is the popup's to say (its active tab).
  handle('popup→bg:run.state', ['popup'], async ({ tabId }) => ({
    active: isRunning(tabId) || !!mcpRunView(tabId),
    blocked: isPanelBlocked(tabId),
  }))
  handle('popup→bg:run.stop', ['popup'], async ({ tabId }) => ({
    stopped: [stopRun(tabId), stopMcp(tabId), stopQuestions(tabId)].some(Boolean),
  }))

  // Every Allow / Deny, whoever asked (the agent, a pack, a flow, `/run`, the popup's Run, an MCP
  // client, a cached plan's review): one registry, one answer (src/background/questions.ts).
  handle('ui→bg:question.answer', ['panel', 'popup'], async ({ id, allow, runId }, ctx) => {
    if (ctx.kind === 'popup' && runId === undefined) return { ok: false, reason: 'elsewhere' as const }
    return answerQuestion(ctx.kind === 'popup' ? { popup: runId! } : { tab: tabOf(ctx) }, id, allow)
  })

  handle('panel→bg:run.answer', ['panel'], async ({ runId, text, picked, continued, takeover }, ctx) =>
    answerAsk(
      tabOf(ctx),
      runId,
      takeover
        ? { takeover: true }
        : continued && !text
          ? { continued: true }
          : { text: text ?? '', ...(picked ? { picked: true } : {}) },
    ),
  )

  handle('panel→bg:run.pause', ['panel'], async (_req, ctx) => ({ paused: pauseRun(tabOf(ctx)) }))

  handle('panel→bg:chat.load', ['panel'], async (_req, ctx) => {
    const tabId = tabOf(ctx)
    const origin = await conversationOf(tabId)
    // This worker's copy: streamed text reaches storage only once a second.
    const h = await readHistory(origin)
    // A client driving the tab (docs/mcp.md) shows as a run, so the panel offers Stop.
    const url = (await browser.tabs.get(tabId).catch(() => undefined))?.url ?? origin
    return { messages: h.messages, run: (await runView(tabId)) ?? mcpRunView(tabId), seq: h.seq, origin, url }
  })

  handle('panel→bg:record.get', ['panel'], async ({ messageId }, ctx) => {
    const origin = await conversationOf(tabOf(ctx))
    return { record: (await recordsStore(origin).get()).find((r) => r.messageId === messageId) ?? null }
  })

  handle('panel→bg:chat.clear', ['panel'], async (_req, ctx) => {
    if (isRunning(tabOf(ctx))) return { cleared: false }
    await clearHistory(await conversationOf(tabOf(ctx)))
    return { cleared: true }
  })
}
