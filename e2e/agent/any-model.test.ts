// Any model (docs/instruction-schema.md, "What Ava reads"; docs/agent.md, "Structured output"):
// the same plan, written the ways real models write it, completes through the loopback model in
// both wire formats; structured output is asked for and honoured; reasoning is shown as thinking.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { launchAva, type Ava, pressSend } from '../support/ava'
import { startLlmServer, type LlmServer, type ScriptedReply } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
let page: Page

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startSiteServer()])
  page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})

/** The plan every shape writes: type a name into the username field, then answer. */
const typeStep = (name: string) => ({
  step_id: 1,
  action_type: 'input',
  params: { fallback_selector: '#username', semantic_locator: 'Username field', value: name },
  description: 'Type the name',
})
const doneStep = (name: string) => ({ step_id: 2, action_type: 'done', params: { answer: `Typed ${name}.` } })
const py = (v: unknown): string =>
  v === null
    ? 'None'
    : v === true
      ? 'True'
      : typeof v === 'string'
        ? `'${v.replace(/'/g, "\\'")}'`
        : typeof v === 'number'
          ? String(v)
          : Array.isArray(v)
            ? `[${v.map(py).join(', ')}]`
            : `{${Object.entries(v as object)
                .map(([k, x]) => `'${k}': ${py(x)}`)
                .join(', ')}}`
const camel = (v: unknown): unknown =>
  v && typeof v === 'object'
    ? Object.fromEntries(
        Object.entries(v).map(([k, x]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), camel(x)]),
      )
    : v

/** Shape name → the reply for a name (the answer says "Typed <name>."). */
const shapes: Record<string, (n: string) => string> = {
  'bare array': (n) => JSON.stringify([typeStep(n), doneStep(n)]),
  '<think> first': (n) =>
    `<think>The field is #username; [{"not": "a step"}]</think>\n${JSON.stringify([typeStep(n), doneStep(n)])}`,
  '```json fence with prose': (n) =>
    `Sure! Here is the plan:\n\n\`\`\`json\n${JSON.stringify([typeStep(n), doneStep(n)], null, 2)}\n\`\`\`\nI will check it after.`,
  '{"steps": …}': (n) => JSON.stringify({ steps: [typeStep(n), doneStep(n)] }),
  '{"instructions": …}': (n) => JSON.stringify({ instructions: [typeStep(n), doneStep(n)] }),
  'type/id {"actions": …}': (n) =>
    JSON.stringify({
      actions: [
        { type: 'input', selector: '#username', value: n, reason: 'Type the name' },
        { type: 'done', answer: `Typed ${n}.` },
      ],
    }),
  'one object per line': (n) => `${JSON.stringify(typeStep(n))}\n${JSON.stringify(doneStep(n))}\n`,
  'comments and trailing commas': (n) =>
    `[\n  // type it\n  ${JSON.stringify(typeStep(n))},\n  ${JSON.stringify(doneStep(n))},\n]`,
  'Python dicts': (n) => py({ steps: [{ ...typeStep(n), extra: null, ok: true }, doneStep(n)] }),
  'camelCase keys, numbers as strings': (n) =>
    JSON.stringify([camel({ ...typeStep(n), step_id: '1' }), camel({ ...doneStep(n), step_id: '2' })]),
  'a JSON string holding the array': (n) => JSON.stringify(JSON.stringify([typeStep(n), doneStep(n)])),
}

async function runShapes(provider: 'openai' | 'anthropic') {
  await ava.configure({ provider, baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model', structuredOutput: 'off' })
  await page.reload()
  const panel = await ava.openPanel(page)
  const failed: string[] = []
  for (const [k, [shape, write]] of Object.entries(shapes).entries()) {
    const name = `${provider}-${k}`
    llm.script({ text: write(name), chunkDelayMs: 5 })
    const answer = await ask(panel, `type ${name} as the username`)
    const typed = await page.inputValue('#username')
    if (typed !== name || !answer.includes(`Typed ${name}.`))
      failed.push(`${shape}: field "${typed}", answer "${answer.slice(0, 80)}"`)
  }
  expect(failed).toEqual([])
}

/** Sends a request and returns the answer's text once the run has ended. */
async function ask(panel: Frame, text: string): Promise<string> {
  const before = await panel.locator('[data-role=assistant]').count()
  await pressSend(panel, text)
  const msg = panel.locator('[data-role=assistant]').nth(before)
  await msg.locator('[data-test=usage]').waitFor({ timeout: 20_000 })
  return (await msg.textContent()) ?? ''
}

it('completes the same task in every shape over the OpenAI wire format', async () => {
  await runShapes('openai')
})

it('completes the same task in every shape over the Anthropic wire format', async () => {
  await runShapes('anthropic')
})

it('asks OpenAI and Anthropic for structured output, and runs the structured plan as it streams', async () => {
  const structured = (n: string) => JSON.stringify({ steps: [typeStep(n), doneStep(n)] })
  for (const provider of ['openai', 'anthropic'] as const) {
    await ava.configure({ provider, baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model', structuredOutput: 'on' })
    await page.reload()
    const panel = await ava.openPanel(page)
    llm.requests.length = 0
    const name = `${provider}-structured`
    llm.script({ text: structured(name), chunkDelayMs: 5 })
    expect(await ask(panel, `type ${name}`)).toContain(`Typed ${name}.`)
    expect(await page.inputValue('#username')).toBe(name)
    const body = llm.requests.find((r) => r.api === provider)!.body
    if (provider === 'openai') {
      expect(body.response_format?.type).toBe('json_schema')
      expect(body.response_format.json_schema.schema.properties.steps.type).toBe('array')
    } else {
      // Anthropic: a forced tool whose input is the plan (the loopback answers with tool_use).
      expect(['tool', 'any']).toContain(body.tool_choice?.type)
      expect(body.tools).toHaveLength(1)
      const tool = body.tools[0]
      expect(tool.input_schema.properties.steps.type).toBe('array')
    }
  }
})

it('falls back to plain text once when the server rejects structured output, and remembers it', async () => {
  await ava.configure({
    provider: 'openai',
    baseUrl: llm.baseUrl,
    apiKey: 'k',
    model: 'test-model',
    structuredOutput: 'on',
  })
  await ava.worker().then((w) => w.evaluate(() => chrome.storage.local.remove('structuredRefused')))
  await page.reload()
  const panel = await ava.openPanel(page)
  llm.requests.length = 0
  const rejecting: ScriptedReply = { fault: 'http400-schema' }
  llm.script(
    rejecting,
    { text: JSON.stringify([typeStep('fallback'), doneStep('fallback')]) },
    { text: JSON.stringify([doneStep('again')]) },
  )
  expect(await ask(panel, 'type fallback')).toContain('Typed fallback.')
  expect(await ask(panel, 'and again')).toContain('Typed again.')
  const chats = llm.requests.filter((r) => r.api === 'openai')
  expect(chats.map((r) => !!r.body.response_format)).toEqual([true, false, false])
})

it('shows reasoning collapsed as thinking, never as the answer, in both wire formats', async () => {
  for (const provider of ['openai', 'anthropic'] as const) {
    await ava.configure({ provider, baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model', structuredOutput: 'off' })
    await page.reload()
    const panel = await ava.openPanel(page)
    const name = `${provider}-reasoning`
    llm.script({
      reasoning: `The username field is #username. I will type ${provider} there.`,
      text: JSON.stringify([typeStep(name), doneStep(name)]),
    })
    const before = await panel.locator('[data-role=assistant]').count()
    await ask(panel, `type ${name}`)
    const msg = panel.locator('[data-role=assistant]').nth(before)
    const thinking = msg.locator('[data-test=thinking]')
    expect(await thinking.getAttribute('open')).toBeNull() // collapsed
    expect(await thinking.locator('pre').textContent()).toContain(`I will type ${provider} there.`)
    const all = (await msg.textContent()) ?? ''
    expect(all.replace((await thinking.textContent()) ?? '', '')).not.toContain('I will type')
    expect(all).toContain(`Typed ${name}.`)
    expect(await page.inputValue('#username')).toBe(name)
  }
})

it('reads a reply whose <think> the chat template wrote: the reasoning before </think> is thinking, and a plan drafted there never runs', async () => {
  const cases = [
    // DeepSeek-R1 served without a reasoning parser: its draft plan is in the reasoning.
    { model: 'deepseek-r1-distill-qwen-7b', draft: true },
    // Any other model that writes a lone </think>: its prose is taken back as thinking.
    { model: 'test-model', draft: false },
  ]
  for (const { model, draft } of cases) {
    await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model, structuredOutput: 'off' })
    await page.reload()
    const panel = await ava.openPanel(page)
    const name = `lone-${draft ? 'r1' : 'other'}`
    const drafted = draft
      ? `Maybe this:\n${JSON.stringify([{ ...typeStep('WRONG'), params: { fallback_selector: '#password', value: 'WRONG' } }])}\nNo: the person said ${name}.\n`
      : `The field is #username, so I type ${name}.\n`
    llm.script({ text: `${drafted}</think>\n\n${JSON.stringify([typeStep(name), doneStep(name)])}`, chunkDelayMs: 5 })
    const before = await panel.locator('[data-role=assistant]').count()
    await ask(panel, `type ${name} as the username`)
    const msg = panel.locator('[data-role=assistant]').nth(before)
    expect(await page.inputValue('#username')).toBe(name)
    expect(await page.inputValue('#password')).toBe('')
    const thinking = (await msg.locator('[data-test=thinking] pre').textContent()) ?? ''
    expect(thinking).toContain(draft ? 'No: the person said' : 'The field is #username')
    const all = (await msg.textContent()) ?? ''
    const shown = all.replace((await msg.locator('[data-test=thinking]').textContent()) ?? '', '')
    expect(shown).toContain(`Typed ${name}.`)
    expect(shown).not.toMatch(/think>|The field is|No: the person/)
  }
})

it('tells the person when a reply holds no step and no answer, with the raw text behind Details and Regenerate', async () => {
  await ava.configure({
    provider: 'openai',
    baseUrl: llm.baseUrl,
    apiKey: 'k',
    model: 'test-model',
    structuredOutput: 'off',
  })
  await page.reload()
  const panel = await ava.openPanel(page)
  const before = await panel.locator('[data-kind=error]').count()
  // Two replies of nothing but reasoning: the automatic second try, then the message.
  llm.script({ text: '<think>hmm, nothing to do</think>' }, { text: '<think>still nothing</think>' })
  await pressSend(panel, 'do something')
  const error = panel.locator('[data-kind=error]').nth(before)
  await error.waitFor({ timeout: 20_000 })
  expect(await error.textContent()).toMatch(/no steps and no answer/)
  expect(await error.locator('[data-test=details] pre').textContent()).toContain('still nothing')
  expect(await error.locator('[data-test=regenerate]').count()).toBe(1)
})
