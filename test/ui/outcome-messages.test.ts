// One message per outcome, in the UI language: what core says as a key + params is
// rendered from both locale files, every key it can make exists in both, and a Chinese outcome
// carries no English sentence (the English stays in `text` / `details`).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Msg } from '../../src/core/chat'
import { AvaError } from '../../src/core/errors'
import { errorMsg, kOutcomeKeys, recoveryOf, riskAsk, stepFailureMsg } from '../../src/core/agent/outcome'
import { errorMessage } from '../../src/core/agent/finish'
import en from '../../src/core/locales/en'
import zhCN from '../../src/core/locales/zh-CN'
import { setLocale, t, type MessageKey } from '../../src/ui/i18n'

/** The agent's run, in its parts (docs/agent.md, "The run's parts"). */
const kRunFiles = [
  'src/core/agent/run.ts',
  'src/core/agent/context.ts',
  'src/core/agent/ask.ts',
  'src/core/agent/handover.ts',
  'src/core/agent/tab-step.ts',
  'src/core/agent/collect.ts',
  'src/core/agent/pack-step.ts',
  'src/core/agent/step.ts',
  'src/core/agent/finish.ts',
  'src/core/agent/turn.ts',
  'src/core/agent/replay.ts',
]

const say = (m: Msg) => t(m.key as MessageKey, m.params ?? {})
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
/** A Latin word of three letters or more that is not the product's name, an acronym or "token". */
const english = (s: string) => /\b(?!API\b|AI\b|Ava\b|token\b)[A-Za-z]{3,}\b/.test(s)

afterAll(() => setLocale('en'))

describe('outcome keys', () => {
  it('exist, non-empty, in English and Chinese for every key core can make', () => {
    const missing = kOutcomeKeys.filter(
      (k) => !(en as Record<string, string>)[k] || !(zhCN as Record<string, string>)[k],
    )
    expect(missing).toEqual([])
  })

  it('every key written in the run, the background and the panel is one of them or a locale key', () => {
    const root = resolve(import.meta.dirname, '../..')
    const used = new Set<string>()
    for (const file of [...kRunFiles, 'src/core/agent/outcome.ts', 'src/background/agent.ts']) {
      const text = readFileSync(resolve(root, file), 'utf8')
      for (const m of text.matchAll(/\bmsg\('([\w.-]+)'/g)) used.add(m[1])
      for (const m of text.matchAll(/\briskAsk\('([\w]+)'/g)) used.add(`risk.ask.${m[1]}`)
    }
    expect(used.size).toBeGreaterThan(10)
    expect([...used].filter((k) => !kOutcomeKeys.includes(k))).toEqual([])
  })

  it('say it in Chinese without an English sentence', () => {
    // Values filled with Chinese-free placeholders: only the message's own words are checked.
    const leaks = kOutcomeKeys.filter((k) => english((zhCN as Record<string, string>)[k].replace(/\{\w+\}/g, '')))
    expect(leaks).toEqual([])
  })
})

describe('rendering', () => {
  /** Every key rendered with its own placeholders filled: nothing is left unfilled in either language. */
  it.each(['en', 'zh-CN'] as const)('fills every placeholder in %s', async (locale) => {
    await setLocale(locale)
    for (const key of kOutcomeKeys) {
      const params = Object.fromEntries(placeholders((en as Record<string, string>)[key]).map((p) => [p, `<${p}>`]))
      const out = t(key as MessageKey, params)
      expect(out, key).not.toMatch(/\{\w+\}/)
      for (const p of Object.keys(params)) expect(out, `${key} ${p}`).toContain(`<${p}>`)
    }
  })

  it('a step that never found its element is not said to have changed the page; one that left is', async () => {
    await setLocale('en')
    expect(say(stepFailureMsg(2, { code: 'ELEMENT_NOT_FOUND' }))).toBe(
      'Step 2 failed: nothing on the page matches what it looks for.',
    )
    expect(say(stepFailureMsg(2, { code: 'ELEMENT_STALE' }))).toMatch(/page may have changed/)
    await setLocale('zh-CN')
    expect(say(stepFailureMsg(2, { code: 'ELEMENT_NOT_FOUND' }))).toBe('第 2 步失败：页面上找不到要操作的元素。')
    expect(say(stepFailureMsg(2, { code: 'ELEMENT_NOT_FOUND' }))).not.toMatch(/变化/)
    expect(say(stepFailureMsg(2, { code: 'ELEMENT_STALE' }))).toMatch(/页面可能已经变化/)
    expect(say(stepFailureMsg(3, { code: 'NOT_ACTIONABLE', reason: 'disabled' }))).toBe(
      '第 3 步失败：元素处于禁用状态。',
    )
  })

  it('a failed step is said once: the message names the step, the page’s words stay on the step’s row', async () => {
    const e = new AvaError('ELEMENT_NOT_FOUND', 'Step 2 failed: Nothing on the page matches "#login".', {
      msg: stepFailureMsg(2, { code: 'ELEMENT_NOT_FOUND' }),
      step: true,
    })
    const m = errorMessage(e)
    expect(m.details).toBeUndefined()
    expect(m.recovery).toEqual(['retry'])
    await setLocale('zh-CN')
    expect(say(m.msg!)).toBe('第 2 步失败：页面上找不到要操作的元素。')
  })

  it('a raw runtime error is kept for the details and said in the person’s language', async () => {
    const raw =
      'A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received'
    const m = errorMessage(new AvaError('UNKNOWN', raw, { details: raw }))
    await setLocale('zh-CN')
    expect(say(m.msg!)).toBe('出了点问题，运行已停止。请重试。')
    expect(m.details).toBe(raw)
  })

  it('an unreachable model names the URL it tried and offers Retry and Open options', async () => {
    const e = new AvaError('NETWORK', 'Could not reach the provider at http://localhost:11434: Failed to fetch', {
      url: 'http://localhost:11434',
    })
    await setLocale('zh-CN')
    expect(say(errorMsg(e))).toBe(
      '无法连接到 http://localhost:11434 上的模型。请检查网络和设置中的服务地址，然后重试。',
    )
    expect(errorMessage(e).details).toMatch(/Failed to fetch/)
    expect(recoveryOf(e)).toEqual(['retry', 'options'])
  })

  it('offers the recovery each kind of failure has', () => {
    const of = (code: ConstructorParameters<typeof AvaError>[0]) => recoveryOf(new AvaError(code, ''))
    expect(of('TOKEN_INVALID')).toEqual(['options'])
    expect(of('JSON_PARSE')).toEqual(['regenerate'])
    expect(of('SCHEMA')).toEqual(['regenerate'])
    expect(of('MODEL_TIMEOUT')).toEqual(['retry'])
    expect(of('STEP_FAILED')).toEqual(['retry'])
  })

  it('asks about a risky step in the person’s language', async () => {
    await setLocale('zh-CN')
    expect(say(riskAsk('credentials', { step: '点击登录', target: '登录' }))).toBe(
      '点击登录：“登录”会提交含密码的表单。',
    )
    await setLocale('en')
    expect(say(riskAsk('destructive', { step: 'Open the settings', target: 'Delete account' }))).toBe(
      'Open the settings: “Delete account” may delete something.',
    )
  })

  it('counts tokens with the right plural', async () => {
    await setLocale('en')
    expect(t('panel.tokens', { n: 1, total: '1' })).toBe('1 token')
    expect(t('panel.tokens', { n: 6244, total: '6,244' })).toBe('6,244 tokens')
    await setLocale('zh-CN')
    expect(t('panel.tokens', { n: 101, total: '101' })).toBe('101 个 token')
  })
})
