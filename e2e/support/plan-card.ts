import { expect } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { pressSend } from './ava'

/**
 * The plan card (docs/plan-approval.md): before a pack action, a flow replayed
 * in the panel or a remembered plan runs, one question lists every element it will act on. With
 * `safety.showPlans` at its default (every plan) a test that runs one in the panel meets it first;
 * these helpers answer it as a person does, leaving the setting alone.
 */

/** The card's own words in either language (`risk.ask.plan`). */
export const kPlanCardText = /It will act on these elements|它将按以下顺序操作这些元素/

/** The panel takes a click only once it has been fully visible this long (src/panel/visibility.ts `kSteadyMs`). */
const kSteadyMs = 500

/** The pending plan cards in the panel. */
export const planCards = (panel: Frame) =>
  panel.locator('[data-test=confirm][data-state=pending]').filter({ hasText: kPlanCardText })

/**
 * Waits for the plan card, then answers it: Allow (or Deny with `allow: false`). The click is made
 * once the panel has been in plain view for 500 ms, and again if the panel held it back (a click
 * it refuses leaves the card pending). Returns the card's text, the list as the person read it.
 */
export async function answerPlanCard(panel: Frame, opts: { allow?: boolean; timeout?: number } = {}): Promise<string> {
  const card = planCards(panel).first()
  await card.waitFor({ timeout: opts.timeout ?? 30_000 })
  const text = (await card.textContent()) ?? ''
  // The card by its place among the questions: once answered it is no longer "pending".
  const all = panel.locator('[data-test=confirm]')
  const index = await all.evaluateAll(
    (els, source) =>
      els.findIndex((e) => e.getAttribute('data-state') === 'pending' && new RegExp(source).test(e.textContent ?? '')),
    kPlanCardText.source,
  )
  const pinned = index >= 0 ? all.nth(index) : card
  const button = pinned.locator(opts.allow === false ? '[data-test=confirm-deny]' : '[data-test=confirm-allow]')
  for (let attempt = 0; ; attempt++) {
    await new Promise((r) => setTimeout(r, kSteadyMs))
    await button.click({ timeout: 5_000 }).catch(() => undefined)
    const answered = await expect
      .poll(() => pinned.getAttribute('data-state').catch(() => null), { timeout: 3_000 })
      .not.toBe('pending')
      .then(
        () => true,
        () => false,
      )
    if (answered) return text
    if (attempt >= 10) throw new Error(`The plan card stayed pending after ${attempt + 1} clicks: ${text}`)
  }
}

/** Approves the plan card once it comes (the usual case for a test about something else). */
export const approvePlanCard = (panel: Frame, opts: { timeout?: number } = {}) =>
  answerPlanCard(panel, { ...opts, allow: true })

/**
 * The popup's Run asks its plan card in the popup that started it (`popup→bg:question.next`); a
 * test that starts the Run by message answers it the way the popup does, by message. Resolves with
 * the card's question once it has said yes to it.
 */
export async function approvePopupPlan(popup: Page, runId: string): Promise<string> {
  {
    const next = (await popup.evaluate(
      (r) => chrome.runtime.sendMessage({ ava: 1, name: 'popup→bg:question.next', req: { runId: r } }),
      runId,
    )) as { res?: { question: { id: string; reason: string; msg: { key: string } } | null } }
    const q = next.res?.question
    if (!q) throw new Error('The popup run ended without a plan card.')
    if (q.msg.key !== 'risk.ask.plan') throw new Error(`The popup run asked something else first: ${q.reason}`)
    await popup.evaluate(
      ([r, id]) =>
        chrome.runtime.sendMessage({ ava: 1, name: 'ui→bg:question.answer', req: { runId: r, id, allow: true } }),
      [runId, q.id] as const,
    )
    return q.reason
  }
}

/**
 * The popup's Run, started from its form: waits for the plan card in the popup and answers it
 * (Allow unless `allow: false`), as a person does there. Returns the card's text.
 */
export async function answerPopupPlanCard(popup: Page, opts: { allow?: boolean } = {}): Promise<string> {
  const question = popup.locator('[data-test=popup-question]').filter({ hasText: kPlanCardText })
  await question.waitFor({ timeout: 20_000 })
  const text = (await popup.textContent('[data-test=popup-question-text]')) ?? ''
  await popup.click(opts.allow === false ? '[data-test=question-deny]' : '[data-test=question-allow]')
  await expect.poll(() => question.count(), { timeout: 10_000 }).toBe(0)
  return text
}

/**
 * Sends a request whose plan is remembered (the instruction cache): the panel shows its plan card
 * before the replay, which this approves as a person does, then waits for the run to end (its
 * usage line). A request the model plans afresh shows no card and just runs.
 */
export async function sendApprovingPlan(panel: Frame, text: string, opts: { timeout?: number } = {}): Promise<void> {
  const before = await panel.locator('[data-role=assistant]').count()
  const cards = await panel.locator('[data-test=confirm]').filter({ hasText: kPlanCardText }).count()
  await pressSend(panel, text)
  const usage = panel.locator('[data-role=assistant]').nth(before).locator('[data-test=usage]')
  const deadline = Date.now() + (opts.timeout ?? 30_000)
  for (;;) {
    if (await usage.count()) return
    if ((await planCards(panel).count()) > 0) await approvePlanCard(panel)
    else if (Date.now() > deadline) throw new Error(`The run of “${text}” did not end (${cards} plan cards before it).`)
    await new Promise((r) => setTimeout(r, 200))
  }
}
