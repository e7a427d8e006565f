/**
 * Suite `agent` (issue 6), on the bundled sample app's login-and-verify task:
 *   send_to_first_action_ms  pressing send → the first step acting in the page, LLM answering at once
 *   cached_replay_ms         the same request again, replayed from the instruction cache: the run's
 *                            start to its end in the background (login, navigation, verify)
 *   cached_replay_llm_calls  requests the replays made to the LLM (should be 0)
 *   prompt_tokens_per_step   real prompt tokens (o200k) the planner sent, per executed step
 * Risky-step confirmation is switched off for the bench: a person's click is not Ava's speed.
 */
import { DEFAULT_SETTINGS } from '../src/core/settings'
import { countTokens } from './lib/tokens'
import { instructionChunks, launchAva } from '../e2e/support/ava'
import { startLlmServer } from '../e2e/support/llm-server'
import { startSiteServer } from '../e2e/support/site-server'
import { ensureBuilt } from './lib/extension'
import { median, report } from './lib/report'

const kRuns = 5

ensureBuilt()
const [ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startSiteServer()])
try {
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'bench' }, { safety: { ...DEFAULT_SETTINGS.safety, confirm: [] } })
  await (await ava.worker()).evaluate(() => chrome.storage.local.set({ vault: { alice: 'wonderland' } }))
  const plan = [
    { step_id: 1, action_type: 'input', params: { fallback_selector: '#username', semantic_locator: 'username field', value: 'alice' } },
    { step_id: 2, action_type: 'input', params: { fallback_selector: '#password', semantic_locator: 'password field', value: '${secret:alice}' } },
    { step_id: 3, action_type: 'click', params: { fallback_selector: '#login-btn', semantic_locator: 'Log in button' } },
    { step_id: 4, action_type: 'verify', params: { assertion: 'Shows "Welcome, alice"' } },
    { step_id: 5, action_type: 'done', params: { answer: 'Logged in.' } },
  ]
  const page = await ava.context.newPage()
  const firstAction: number[] = []
  const replays: number[] = []
  let planned = 0
  let plannedSteps = 0
  let promptTokens = 0
  let replayCalls = 0

  for (let i = 0; i <= kRuns; i++) {
    // A fresh request wording each round: the first run of it plans, the second replays.
    const request = `log in as alice and check the dashboard (round ${i})`
    for (const mode of ['plan', 'replay'] as const) {
      await page.goto(`${site.url}/logout`)
      await page.goto(`${site.url}/login`)
      await page.evaluate(() => document.querySelector('#username')!.addEventListener('input', () => ((window as any).__firstActionAt ??= Date.now())))
      const panel = await ava.openPanel(page)
      if (mode === 'plan') llm.script({ chunks: instructionChunks(plan) })
      else llm.script()
      const before = llm.requests.length
      await panel.fill('[data-test=input]', request)
      const t0 = Date.now()
      await panel.press('[data-test=input]', 'Enter')
      await page.waitForFunction(() => (window as any).__firstActionAt !== undefined, null, { polling: 5, timeout: 15_000 }).catch(async (e) => {
        throw new Error(`no action in round ${i} (${mode}); the panel says: ${(await ava.panel(page).then((f) => f.textContent('[data-test=messages]')).catch(() => '?'))?.slice(-600)}`, { cause: e })
      })
      const firstAt = await page.evaluate(() => (window as any).__firstActionAt as number)
      await page.waitForURL(`${site.url}/dashboard`)
      const after = await ava.panel(page)
      await after.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor()
      // The run's own clock: from the background taking the request to the run's end, without the
      // panel of the new page loading (which a person sees, but which is not the replay).
      const run = (await (await ava.worker()).evaluate(() => chrome.storage.session.get(null).then((all) => Object.entries(all).filter(([k]) => k.startsWith('run:')).map(([, v]) => v)))) as { startedAt: number; endedAt?: number; request: string }[]
      const mine = run.find((r) => r.request === request && r.endedAt)!
      if (i === 0) continue // warms the worker, the lazy chunks and the connection
      if (mode === 'plan') {
        firstAction.push(firstAt - t0)
        for (const r of llm.requests.slice(before)) promptTokens += countTokens(JSON.stringify(r.body.messages))
        planned += llm.requests.length - before
        plannedSteps += 4
      } else {
        replays.push(mine.endedAt! - mine.startedAt)
        replayCalls += llm.requests.length - before
      }
    }
  }
  report({ suite: 'agent', case: 'login_and_verify', metric: 'send_to_first_action_ms', value: median(firstAction), unit: 'ms' })
  report({ suite: 'agent', case: 'login_and_verify', metric: 'cached_replay_ms', value: median(replays), unit: 'ms' })
  report({ suite: 'agent', case: 'login_and_verify', metric: 'cached_replay_llm_calls', value: replayCalls, unit: 'calls' })
  report({ suite: 'agent', case: 'login_and_verify', metric: 'prompt_tokens_per_step', value: promptTokens / plannedSteps, unit: 'tokens' })
  report({ suite: 'agent', case: 'login_and_verify', metric: 'llm_calls_per_planned_run', value: planned / kRuns, unit: 'calls' })
} finally {
  await Promise.all([ava.close(), llm.close(), site.close()])
}
