import browser from 'webextension-polyfill'
import type { ChatMessage, Msg } from '../core/chat'
import { createQuestionRegistry, type AnswerRefusal, type QuestionPlace } from '../core/gate/questions'
import { answerRepairReview } from './agent-cache'
import { chatWriter, conversationOf, readHistory, type ChatWriter } from './conversation'

/**
 * The worker's one registry of questions waiting on the person (core/gate/questions.ts holds the
 * rules), the cards they are shown on, and the one answer every card's Allow / Deny sends
 * (`answerQuestion`). The agent's own questions (its port `ask.confirm`, src/background/agent.ts),
 * packs, flows, `/run`, the popup's Run and MCP clients all wait here.
 */
export const questions = createQuestionRegistry()

/** What the panel is told when its answer was not taken; the card says the rest. */
export type AnswerOutcome = { ok: true } | { ok: false; reason: AnswerRefusal }

/** A card in the tab's panel as its asker writes it; the registry's id is the card's message id. */
export interface PanelCard {
  text: string
  reason: string
  step: number
  msg: Msg
  /** The run, replay or session it belongs to (the card's `runId`). */
  owner: string
}

/**
 * A question in the tab's panel, answered by Allow or Deny there: one card, one entry in the
 * registry; a run that stops meanwhile (`signal`) is a no. Replays, `/run` and MCP clients ask
 * through it; the agent's run writes its own card (it draws it under its step) and waits through
 * `waitInTab`.
 */
export async function askInPanel(
  tabId: number,
  chat: ChatWriter,
  card: PanelCard,
  signal?: AbortSignal,
): Promise<boolean> {
  const added = await chat.add({
    role: 'system',
    kind: 'confirm',
    text: card.text,
    confirm: { runId: card.owner, step: card.step, reason: card.reason, state: 'pending', msg: card.msg },
  })
  const allow = await waitInTab(tabId, added.id, card.owner, signal)
  await chat.patch(added.id, { confirm: { ...added.confirm!, state: allow ? 'allowed' : 'denied' } })
  return allow
}

/** Told of every question a tab's panel shows (a scheduled run's tab tells the person: src/background/schedules.ts). */
const panelQuestionWatchers = new Set<(tabId: number) => void>()
export function onPanelQuestion(fn: (tabId: number) => void): void {
  panelQuestionWatchers.add(fn)
}

/** Waits for the answer to the card `cardId`, already shown in the tab's panel. */
export async function waitInTab(tabId: number, cardId: string, owner: string, signal?: AbortSignal): Promise<boolean> {
  for (const watcher of panelQuestionWatchers) watcher(tabId)
  return (await questions.ask({ id: cardId, place: { tab: tabId }, owner, signal })).allow
}

// ---------------------------------------------------------------------------------------------
// The popup's Run: its questions are shown in the popup that started it.

/** A question for the popup, as it shows it. */
export interface PopupQuestion {
  id: string
  reason: string
  msg: Msg
}

/** How long a popup question waits: long enough to read and decide, short enough that a closed popup does not hold the run. */
const kPopupAnswerMs = 120_000

/** Per popup run: the question waiting for its popup, and the popup's wait for the next one. */
const popupRuns = new Map<string, { pending?: PopupQuestion; waiter?: (q: PopupQuestion | null) => void }>()

/** Starts a popup run's questions; `end` answers a waiting popup with "no more" and closes its questions. */
export function openPopupRun(runId: string): { end(): void } {
  // The popup's first wait may arrive before its Run (two messages at once): it made the entry.
  if (!popupRuns.has(runId)) popupRuns.set(runId, {})
  return {
    end() {
      const r = popupRuns.get(runId)
      popupRuns.delete(runId)
      r?.waiter?.(null)
      questions.end(runId)
    },
  }
}

/** The popup's wait for its run's next question; null when the run has ended. */
export function nextPopupQuestion(runId: string): Promise<PopupQuestion | null> {
  let r = popupRuns.get(runId)
  if (!r) popupRuns.set(runId, (r = {}))
  if (r.pending) return Promise.resolve(r.pending)
  return new Promise((resolve) => {
    r.waiter = (q) => {
      r.waiter = undefined
      resolve(q)
    }
  })
}

/** A question shown in the popup that started the run, answered there; a run that ended is a no. */
export async function askInPopup(runId: string, card: PopupQuestion, signal?: AbortSignal): Promise<boolean> {
  const r = popupRuns.get(runId)
  if (!r) return false
  // A popup closed under its question cannot say so: an unanswered question ends as a no.
  const settled = questions.ask({
    id: card.id,
    place: { popup: runId },
    owner: runId,
    signal,
    timeoutMs: kPopupAnswerMs,
  })
  r.pending = card
  r.waiter?.(card)
  const { allow } = await settled
  r.pending = undefined
  return allow
}

// ---------------------------------------------------------------------------------------------
// The one answer

/**
 * The person's Allow or Deny, from a tab's panel (`{ tab }`, with the card's message id) or from
 * the popup run that asked (`{ popup }`). A question the registry holds is answered by its rules;
 * a card it does not hold is a cached plan's repair review (answered from storage, where it
 * waits), or a question that no longer waits (its worker restarted): that card is closed, and
 * nothing is done.
 */
export async function answerQuestion(from: QuestionPlace, id: string, allow: boolean): Promise<AnswerOutcome> {
  const out = questions.answer(from, id, allow)
  if (out.ok || out.reason !== 'unknown' || !('tab' in from)) return out
  const tabId = from.tab
  const origin = await conversationOf(tabId)
  const card = (await readHistory(origin)).messages.find((m) => m.id === id)
  if (!card?.confirm || card.confirm.state !== 'pending')
    return { ok: false, reason: card?.confirm ? 'answered' : 'unknown' }
  if (card.confirm.review)
    return (await answerRepairReview(tabId, card.confirm.runId, allow)) ? { ok: true } : { ok: false, reason: 'closed' }
  // A card reaches the panel a moment before its asker waits on it (the asker writes the card, then
  // its run state, then waits): an answer in that moment waits for the question, up to 3 s, before
  // the card is taken for one whose worker restarted. Seen under load in CI (channel-stress).
  for (const until = Date.now() + kRegisterGraceMs; Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 50))
    const again = questions.answer(from, id, allow)
    if (again.ok || again.reason !== 'unknown') return again
  }
  await closeCard(tabId, origin, card)
  return { ok: false, reason: 'closed' }
}

/** How long an answer to a pending card waits for its question to be registered. */
const kRegisterGraceMs = 3_000

async function closeCard(tabId: number, origin: string, card: ChatMessage): Promise<void> {
  await chatWriter(origin, () => tabId).patch(card.id, { confirm: { ...card.confirm!, state: 'closed' } })
}

/** Stop in a tab's panel (or the popup for that tab): every question shown there is a no. */
export function stopQuestions(tabId: number): boolean {
  return questions.closeTab(tabId, 'stopped') > 0
}

/** A closed tab's questions can never be answered: each is a no. Registered at the worker's top level. */
export function watchQuestionTabs(): void {
  browser.tabs.onRemoved.addListener((tabId) => void questions.closeTab(tabId, 'tab-closed'))
}
