// Prompt profiles (docs/settings.md, "Prompt profiles"): a small local model gets the compact
// prompt, chosen from the providers table by the size its name states; the compact prompt keeps the
// rules that keep the person safe, and costs far fewer tokens (bench/agent.ts prints both).
import { describe, expect, it } from 'vitest'
import { countTokens } from '../../../bench/lib/tokens'
import { modelSizeB, promptProfile } from '../../../src/core/providers'
import {
  buildSystemPrompt,
  buildUserPrompt,
  compactPage,
  kCompactListingLines,
  kUntrustedClose,
  kUntrustedOpen,
} from '../../../src/core/agent/prompt'
import { readInstructionText } from '../../../src/core/instruction/read'

describe('which prompt a model gets', () => {
  it('reads the size from the name, as the model registries write it', () => {
    expect(
      [
        'qwen2.5:7b',
        'Llama-3.2-3B-Instruct',
        'gemma3:270m',
        'qwen2.5-coder:1.5b',
        'mixtral:8x7b',
        'gpt-4.1-mini',
        'llama3.3:70b',
      ].map(modelSizeB),
    ).toEqual([7, 3, 0.27, 1.5, 56, undefined, 70])
  })

  it('gives small local models the compact prompt, and every other model the full one', () => {
    expect(promptProfile({ provider: 'local', model: 'qwen2.5:7b' })).toBe('compact')
    expect(promptProfile({ provider: 'local', model: 'phi4:14b' })).toBe('compact')
    expect(promptProfile({ provider: 'local', model: 'llama3.3:70b' })).toBe('full')
    expect(promptProfile({ provider: 'local', model: 'my-finetune' })).toBe('full')
    expect(promptProfile({ provider: 'openai', model: 'gpt-4.1-nano' })).toBe('full')
    expect(promptProfile({ provider: 'anthropic', model: 'claude-3-5-haiku' })).toBe('full')
  })
})

describe('the compact prompt', () => {
  const listing = Array.from(
    { length: 300 },
    (_, i) => `[btn_${i}] Button number ${i} ${'x'.repeat(i % 7 === 0 ? 400 : 10)}`,
  ).join('\n')
  const page = {
    url: 'https://shop.test/',
    title: 'Shop',
    listing,
    intents: [{ name: 'login', targets: ['user', 'pw', 'btn_login'] }],
  }

  it('keeps the untrusted block, the secrets rule and asking, and its example is a step Ava reads', () => {
    const p = buildSystemPrompt({ compact: true })
    expect(p).toContain(kUntrustedOpen)
    expect(p).toContain(kUntrustedClose)
    expect(p).toContain('${secret:NAME}')
    expect(p).toMatch(/- ask: question/)
    const example = /e\.g\. (\[.*\])\./.exec(p)![1]
    expect(readInstructionText(JSON.stringify(JSON.parse(example)[0]), 0).success).toBe(true)
  })

  it('shows a shorter listing, without intents, and says what it left out', () => {
    const shown = compactPage(page)
    const lines = shown.listing.split('\n')
    expect(lines).toHaveLength(kCompactListingLines + 1)
    expect(lines.at(-1)).toBe(`(${300 - kCompactListingLines} more lines not shown: scroll to see more)`)
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(161)
    expect(shown.intents).toBeUndefined()
  })

  it('costs well under half the tokens of the full prompt for the same first turn', () => {
    const full = countTokens(buildSystemPrompt() + buildUserPrompt('log in as alice', page))
    const compact = countTokens(
      buildSystemPrompt({ compact: true }) + buildUserPrompt('log in as alice', compactPage(page)),
    )
    expect(compact).toBeLessThan(full / 2)
  })
})
