// Other agents' words, raw chat templates and looser syntax (docs/instruction-schema.md, "What Ava
// reads"; src/core/instruction/dialects.ts) through the built extension: the same task, answered
// each way in small streamed chunks over both wire formats, completes; a word with two meanings is
// sent back to the model; a reply cut at the token limit runs its complete steps and asks for the rest.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { launchAva, type Ava, pressSend } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
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

const j = (v: unknown) => JSON.stringify(v)
/** Shape name → the reply that types `n` into the username field and answers "Typed <n>.". */
const shapes: Record<string, (n: string) => string> = {
  'browser-use': (n) =>
    j({
      current_state: { evaluation_previous_goal: 'Unknown', memory: '', next_goal: 'type' },
      action: [{ input_text: { selector: '#username', text: n } }, { done: { text: `Typed ${n}.`, success: true } }],
    }),
  'Stagehand observe result': (n) =>
    `${j([{ method: 'fill', selector: 'xpath=//*[@id="username"]', arguments: [n], description: 'Username field' }])}\n${j({ action: 'done', answer: `Typed ${n}.` })}`,
  'Playwright MCP calls in <tool_call> tags': (n) =>
    `<tool_call>\n${j({ name: 'browser_type', arguments: { element: 'Username field', selector: '#username', text: n } })}\n</tool_call>\n<tool_call>\n${j({ name: 'done', arguments: { answer: `Typed ${n}.` } })}\n</tool_call>`,
  'OpenAI function calls written into the text': (n) =>
    j({
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'input', arguments: j({ fallback_selector: '#username', value: n }) },
        },
        { id: 'call_2', type: 'function', function: { name: 'done', arguments: j({ answer: `Typed ${n}.` }) } },
      ],
    }),
  'gpt-oss harmony served raw': (n) =>
    `<|channel|>analysis<|message|>Type it.<|end|><|start|>assistant<|channel|>commentary to=functions.input <|constrain|>json<|message|>${j({ fallback_selector: '#username', value: n })}<|call|><|start|>assistant<|channel|>final<|message|>Typed ${n}.<|return|>`,
  'Mistral [TOOL_CALLS]': (n) =>
    `[TOOL_CALLS][${j({ name: 'input', arguments: { fallback_selector: '#username', value: n } })}, ${j({ name: 'done', arguments: { answer: `Typed ${n}.` } })}]</s>`,
  'Llama 3.1 <|python_tag|>': (n) =>
    `<|python_tag|>${j({ name: 'input', parameters: { fallback_selector: '#username', value: n } })}<|eom_id|>\n<|python_tag|>${j({ name: 'done', parameters: { answer: `Typed ${n}.` } })}<|eot_id|>`,
  'ChatML served raw': (n) =>
    `<|im_start|>assistant\n${j([
      { action_type: 'input', params: { fallback_selector: '#username', value: n } },
      { action_type: 'done', params: { answer: `Typed ${n}.` } },
    ])}<|im_end|>`,
  'Skyvern upper-case actions': (n) =>
    j({
      actions: [
        { action_type: 'INPUT_TEXT', css: '#username', text: n, reasoning: 'type it' },
        { action_type: 'COMPLETE', answer: `Typed ${n}.` },
      ],
    }),
  'JSON5 fence': (n) =>
    `\`\`\`json5\n[{action_type: 'input', params: {fallback_selector: '#username', value: '${n}'}}, {action_type: 'done', params: {answer: 'Typed ${n}.'},},]\n\`\`\``,
  'YAML fence': (n) =>
    `\`\`\`yaml\n- action: fill_in\n  selector: "#username"\n  text_to_type: "${n}"\n- action: finish\n  answer: "Typed ${n}."\n\`\`\``,
  'one block per step with prose': (n) =>
    `First I type:\n\`\`\`json\n${j({ action: 'type', selector: '#username', text: n })}\n\`\`\`\nThen I answer:\n\`\`\`json\n${j({ action: 'done', answer: `Typed ${n}.` })}\n\`\`\``,
  'objects inside sentences': (n) =>
    `I will type it ${j({ action: 'enter_text', css: '#username', value: n })} and answer ${j({ action: 'final_answer', answer: `Typed ${n}.` })}.`,
}

async function ask(panel: Frame, text: string): Promise<string> {
  const before = await panel.locator('[data-role=assistant]').count()
  await pressSend(panel, text)
  const msg = panel.locator('[data-role=assistant]').nth(before)
  await msg.locator('[data-test=usage]').waitFor({ timeout: 20_000 })
  return (await msg.textContent()) ?? ''
}

for (const provider of ['openai', 'anthropic'] as const) {
  it(`completes the same task written in other agents' words, raw templates and looser syntax, streamed in small chunks (${provider})`, async () => {
    await ava.configure({ provider, baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model', structuredOutput: 'off' })
    await page.reload()
    const panel = await ava.openPanel(page)
    const failed: string[] = []
    for (const [k, [shape, write]] of Object.entries(shapes).entries()) {
      const name = `${provider}-${k}`
      const text = write(name)
      llm.script({ text, chunks: text.match(/[\s\S]{1,5}/g)!, chunkDelayMs: 2 })
      const answer = await ask(panel, `type ${name} as the username`)
      const typed = await page.inputValue('#username')
      if (typed !== name || !answer.includes(`Typed ${name}.`) || /<\||tool_call|"method"/.test(answer))
        failed.push(`${shape}: field "${typed}", answer "${answer.slice(0, 120)}"`)
    }
    expect(failed).toEqual([])
  })
}

it('asks the model again when its word could mean two actions, and runs nothing for it', async () => {
  await ava.configure({
    provider: 'openai',
    baseUrl: llm.baseUrl,
    apiKey: 'k',
    model: 'test-model',
    structuredOutput: 'off',
  })
  await page.reload()
  const panel = await ava.openPanel(page)
  llm.requests.length = 0
  await page.fill('#username', '')
  llm.script(
    {
      text: j([
        { action: 'check', selector: '#username' },
        { action: 'type', selector: '#username', text: 'not-run' },
      ]),
    },
    {
      text: j([
        { action: 'type', selector: '#username', text: 'asked-again' },
        { action: 'done', answer: 'Typed after asking.' },
      ]),
    },
  )
  expect(await ask(panel, 'type asked-again')).toContain('Typed after asking.')
  expect(await page.inputValue('#username')).toBe('asked-again')
  const second = llm.requests.filter((r) => r.api === 'openai')[1].body
  expect(JSON.stringify(second.messages.at(-1))).toMatch(/could mean verify or click/)
})

it('runs the complete steps of a reply cut at the token limit, says so, and asks for the rest (both wire formats)', async () => {
  for (const provider of ['openai', 'anthropic'] as const) {
    // No plan from the cache: the model itself must be asked, cut and asked again.
    await ava.configure(
      { provider, baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model', structuredOutput: 'off' },
      { agent: { stepLimit: 20, useCache: false } },
    )
    await page.reload()
    const panel = await ava.openPanel(page)
    llm.requests.length = 0
    const full = j([
      { action_type: 'input', params: { fallback_selector: '#username', value: `${provider}-cut` } },
      { action_type: 'click', params: { fallback_selector: '#login-btn' }, description: 'Log in' },
    ])
    const cut = full.slice(0, full.indexOf('#login-btn'))
    llm.script(
      { text: cut, chunks: cut.match(/[\s\S]{1,6}/g)!, atLimit: true },
      { text: j([{ action_type: 'done', params: { answer: 'Both parts done.' } }]) },
    )
    const before = await panel.locator('[data-role=system]').count()
    expect(await ask(panel, `fill the username with ${provider}-cut`)).toContain('Both parts done.')
    // The complete step ran; the cut one (the click) did not.
    expect(await page.inputValue('#username')).toBe(`${provider}-cut`)
    expect(page.url()).toContain('/login')
    const notes = await panel.locator('[data-role=system]').allTextContents()
    expect(notes.slice(before).join('\n')).toMatch(/cut off by its token limit after 1 complete step/)
    const second = llm.requests.filter((r) => r.api === provider)[1].body
    expect(JSON.stringify(second.messages)).toMatch(/cut off by the token limit after 1 complete step/)
  }
})
