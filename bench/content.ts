/**
 * Suite `content`: how much JavaScript every page pays for Ava before it is used, and
 * how fast a request turns into the first action in the page with an LLM that answers at once.
 */
import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { launchAva } from '../e2e/support/ava'
import { startLlmServer } from '../e2e/support/llm-server'
import { startSiteServer } from '../e2e/support/site-server'
import { dist, eagerContentFiles, ensureBuilt, root, sizes } from './lib/extension'
import { median, report, runsOf } from './lib/report'

const kRuns = runsOf(10)

ensureBuilt()
const files = eagerContentFiles()
const size = sizes(files)
if (process.env.AVA_BENCH_JSON !== '1')
  console.log(`eager content-script files: ${files.map((f) => relative(root, f)).join(', ')}`)
report({ suite: 'content', case: 'eager_content_script', metric: 'eager_bytes', value: size.bytes, unit: 'B' })
report({ suite: 'content', case: 'eager_content_script', metric: 'eager_gzip_bytes', value: size.gzip, unit: 'B' })
// The main-world listener script runs on every page at document_start, before the
// page's own scripts: counted in the eager bytes above, and on its own here (aim: ≤ 2 KB).
const manifest = JSON.parse(readFileSync(resolve(dist, 'manifest.json'), 'utf8')) as {
  content_scripts: { js: string[]; world?: string }[]
}
const mainWorld = sizes(
  manifest.content_scripts.filter((cs) => cs.world === 'MAIN').flatMap((cs) => cs.js.map((js) => resolve(dist, js))),
)
report({ suite: 'content', case: 'main_world_script', metric: 'bytes', value: mainWorld.bytes, unit: 'B' })
report({ suite: 'content', case: 'main_world_script', metric: 'gzip_bytes', value: mainWorld.gzip, unit: 'B' })

const [ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startSiteServer()])
try {
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'bench' })
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  // The page notes when the first action reaches it.
  await page.evaluate(() =>
    document
      .querySelector('#username')!
      .addEventListener('input', () => ((window as any).__firstActionAt ??= Date.now())),
  )
  const panel = await ava.openPanel(page)
  const timings: number[] = []
  for (let i = 0; i <= kRuns; i++) {
    const plan = [
      {
        step_id: 1,
        action_type: 'input',
        params: { target_id: 'none', fallback_selector: '#username', value: `user${i}` },
      },
      { step_id: 2, action_type: 'verify', params: { assertion: '"Sign in"' } },
    ]
    llm.script({ text: JSON.stringify(plan) })
    await page.evaluate(() => ((window as any).__firstActionAt = undefined))
    await panel.fill('[data-test=input]', `type user${i}`)
    await panel.focus('[data-test=input]')
    const t0 = Date.now()
    await panel.press('[data-test=input]', 'Enter')
    await page.waitForFunction(() => (window as any).__firstActionAt !== undefined, null, { polling: 5 })
    const at = await page.evaluate(() => (window as any).__firstActionAt as number)
    await panel.waitForSelector('[data-test=send]:not([disabled])')
    if (i > 0) timings.push(at - t0) // run 0 warms the worker, the chunks and the connection
  }
  report({
    suite: 'content',
    case: 'login_page_loopback_llm',
    metric: 'send_to_first_action_ms',
    value: median(timings),
    unit: 'ms',
  })
} finally {
  await Promise.all([ava.close(), llm.close(), site.close()])
}
