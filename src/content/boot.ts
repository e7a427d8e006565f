import browser from 'webextension-polyfill'
import { handle, send } from '../messaging'
import { createLauncher } from './launcher'
import { watchListenerHints } from '../dom/observe/listeners'
import type { PageCommand } from '../core/page/command'

/**
 * The content script's eager part, in every frame of every page: in the top frame the Ava button
 * and the message handlers, in a subframe only the two handlers the background needs to read a
 * cross-origin frame and act in it. Everything heavy — the chat panel (an extension page), the
 * Observe scanner and the executor — loads on first use, so a page that never uses Ava pays only
 * for this file.
 */
let agentAsked = false
const agent = () => {
  agentAsked = true
  return import('./agent')
}

/**
 * A command for the page agent. A read before anything else (a run's first turn, a
 * subframe's first `frame.read`) loads only the
 * reader (dom/page/read.ts), a fraction of the page agent: the first read is what a person waits
 * for. Any other command loads the whole agent, which reads the same way from then on.
 */
async function pageCommand(
  command: PageCommand,
  keepOut?: Parameters<Awaited<ReturnType<typeof agent>>['onCommand']>[1],
) {
  if (!agentAsked && (command.kind === 'read' || command.kind === 'frame.read'))
    return (await import('../dom/page/read')).answerRead(command)
  return (await agent()).onCommand(command, keepOut)
}

/**
 * Set in this isolated world's global when the boot script has run: a page cannot see or set it,
 * whereas anything in the DOM (an `<ava-root>` it pre-creates) it can forge to turn Ava off.
 */
const kBooted = Symbol.for('ava.boot')

function boot(): void {
  const world = globalThis as { [kBooted]?: true }
  if (world[kBooted]) return
  world[kBooted] = true
  // Listener hints are kept as the page's main world pushes them, asked for once now, on every
  // page: a read never asks, so the page cannot time one (dom/observe/listeners.ts).
  watchListenerHints(document, true)

  const launcher = createLauncher({
    panelUrl: browser.runtime.getURL('src/panel/index.html'),
    getToken: async () => (await send('content→bg:panel.token', {})).token,
    onFocusTaken: (token) => void send('content→bg:panel.focusTaken', { token }).catch(() => undefined),
    onPageDpr: (token, dpr) => void send('content→bg:panel.dpr', { token, dpr }).catch(() => undefined),
    onBlocked: () => void send('content→bg:panel.blocked', {}).catch(() => undefined),
    confirmLive: async (token, focus) =>
      (await send('content→bg:panel.show', { token, focus }).catch(() => ({ live: false }))).live,
    onToggle: (open) => {
      // Someone who opens the panel is about to ask for something: load the page agent now.
      if (open) void agent()
      void send('content→bg:panel.state', { open }).catch(() => undefined)
    },
  })

  handle('bg→content:command', ['background'], (command) => {
    // A screenshot's marks are up only while Ava's own UI is out of the picture.
    if (command.kind === 'marks') launcher.capturing(command.on)
    return launcher.acting(() => pageCommand(command, launcher.keepOut))
  })
  handle('bg→content:panel.open', ['background'], () => {
    launcher.open(true)
    return { ok: true as const }
  })
  handle('bg→content:panel.close', ['background'], () => {
    if (launcher.isOpen) launcher.close()
    return { ok: true as const }
  })
  handle('bg→content:panel.live', ['background'], ({ token }) => {
    launcher.panelLive(token)
    return { ok: true }
  })
  handle('bg→content:panel.gone', ['background'], ({ token }) => {
    launcher.panelGone(token)
    return { ok: true }
  })
  handle('bg→content:panel.drawn', ['background'], ({ token, at, x, y }) => ({
    fault: launcher.drawnFault(token, at, { x, y }),
  }))
  handle('bg→content:language', ['background'], ({ language }) => {
    launcher.setLanguage(language)
    return { ok: true as const }
  })

  sayReady()
    .then(({ panelOpen, runActive, language }) => {
      launcher.setLanguage(language)
      // A run that navigated here will send its next step at once: have the page agent ready.
      if (runActive) void agent()
      // The conversation goes on after a navigation: reopen the panel where it was open.
      if (panelOpen) launcher.open(false)
    })
    .catch(() => undefined)
    .finally(() => launcher.markReady())
}

/**
 * Tells the background this document is here. A message that reaches a service worker as it is
 * being stopped can go unanswered for good (seen under load in CI): it is sent again at 5 s and
 * 15 s, the first answer wins. The handler only records the document, so a repeat is harmless.
 */
function sayReady(): ReturnType<typeof send<'content→bg:ready'>> {
  let settled = false
  const once = () => send('content→bg:ready', { url: location.href }).finally(() => (settled = true))
  const later = (ms: number) =>
    new Promise<void>((r) => setTimeout(r, ms)).then(() => (settled ? new Promise<never>(() => undefined) : once()))
  return Promise.race([once(), later(5_000), later(15_000)])
}

/**
 * A subframe: no button, no panel, no `ready` (the tab's document is the top frame's). The
 * background reads it (`frame.read`) when the top frame cannot see into it (cross-origin) and
 * sends it the steps on its elements (src/background/frames.ts).
 */
function bootFrame(): void {
  handle('bg→content:command', ['background'], (command) => pageCommand(command))
}

if (window.top === window) boot()
else bootFrame()
