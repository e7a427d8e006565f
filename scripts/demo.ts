/**
 * `npm run demo`: builds Ava, opens Chromium with it loaded on the bundled sample app, and asks
 * Ava to "log in as alice". With a display the browser stays open for you to try more; without
 * one it runs headless and saves screenshots.
 *
 * The model: by default a local stand-in that speaks the OpenAI wire format and answers this one
 * request with a fixed plan, so the demo needs no account. Point it at a real provider with
 * AVA_PROVIDER (anthropic | openai | local), AVA_BASE_URL, AVA_API_KEY and AVA_MODEL: the one table
 * of environment variables (src/core/environment.ts, docs/environment.md), as `ava mcp` reads it.
 */
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { allowAll, launchAva, readSteps } from '../e2e/support/ava'
import { startLlmServer } from '../e2e/support/llm-server'
import { startSiteServer } from '../e2e/support/site-server'
import { modelFromEnvironment, readEnvironment } from '../src/core/environment'

const out = resolve(import.meta.dirname, '../.ava-out')
mkdirSync(out, { recursive: true })
const env = readEnvironment(process.env)
for (const warning of env.warnings) console.error(`demo: warning: ${warning}`)
const headed = !!process.env.DISPLAY && env.values.AVA_HEADLESS !== '1'
// A base URL alone means an OpenAI-compatible server, as the demo always took it.
const real =
  env.values.AVA_BASE_URL || env.values.AVA_PROVIDER
    ? modelFromEnvironment({ AVA_PROVIDER: 'openai', ...env.values })
    : undefined
if (typeof real === 'string') throw new Error(real)

const site = await startSiteServer()
const llm = real ? null : await startLlmServer()
const ava = await launchAva({ headless: !headed })

try {
  if (llm) {
    const plan = [
      {
        step_id: 1,
        action_type: 'navigate',
        params: { url: `${site.url}/login` },
        description: 'Open the sign-in page',
      },
      {
        step_id: 2,
        action_type: 'input',
        params: { semantic_locator: 'username input', fallback_selector: '#username', value: 'alice' },
        description: 'Type the username',
      },
      {
        step_id: 3,
        action_type: 'input',
        params: { semantic_locator: 'password input', fallback_selector: '#password', value: 'wonderland' },
        description: 'Type the password',
      },
      { step_id: 4, action_type: 'click', params: { semantic_locator: 'Log in button' }, description: 'Log in' },
      {
        step_id: 5,
        action_type: 'verify',
        params: { assertion: 'The page shows "Welcome, alice"' },
        description: 'Check the dashboard',
      },
    ]
    const done = {
      step_id: 6,
      action_type: 'done',
      params: { answer: 'You are logged in as **alice**; the dashboard shows 2 recent orders.' },
    }
    llm.script({
      chunks: ['[', ...[...plan, done].map((p, i) => JSON.stringify(p) + (i < plan.length ? ',' : '')), ']'],
      chunkDelayMs: 150,
    })
    await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: '', model: 'demo-model' })
  } else {
    await ava.configure({
      provider: real!.provider,
      baseUrl: real!.baseUrl,
      apiKey: real!.apiKey,
      model: real!.model,
      authStyle: real!.authStyle,
    })
  }

  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  console.log(`Sample app: ${site.url}/  (users: alice / wonderland, bob / builder)`)
  await ava.ask(page, 'log in as alice')
  // Ava asks before submitting a password; the demo answers as the person would.
  const loggedIn = page.waitForURL(`${site.url}/dashboard`, { timeout: 60_000 })
  if (!headed) await allowAll(page, loggedIn, (p) => ava.panel(p))
  await loggedIn
  const panel = await ava.panel(page)
  await panel.waitForSelector('[data-test=send]:not([disabled])', { timeout: 60_000 })
  const steps = await readSteps(panel)
  for (const s of steps) console.log(`  ${s.status === 'ok' ? '✓' : '✗'} ${s.detail}`)
  await page.waitForTimeout(300)
  const shot = resolve(out, 'demo-dashboard.png')
  await page.screenshot({ path: shot })
  console.log(`Screenshot: ${shot}`)

  if (headed) {
    console.log('Chromium stays open with Ava loaded: try it on any page. Press Ctrl+C to quit.')
    await new Promise((r) => process.on('SIGINT', r))
  }
  if (!steps.length || steps.some((s) => s.status !== 'ok')) process.exitCode = 1
} finally {
  await Promise.all([ava.close(), llm?.close(), site.close()])
}
