import { afterAll, describe, expect, it } from 'vitest'
import { refusalAsk } from '../../src/core/agent/outcome'
import { createEngine, createRegistry, type RunNotice } from '../../src/core/registry'
import { kFailureCodes, kFailures, type FailureSpec } from '../../src/core/failure'
import { channelError, ProtocolError } from '../../src/messaging/transport'
import { failureLine, issueTitle, kIssueCodes, noticeText, reasonText } from '../../src/popup/run-text'
import { connectionFailure, failure, failureText } from '../../src/ui/failure'
import { deprecationNote, setLocale, t } from '../../src/ui/i18n'
import en from '../../src/core/locales/en'
import zhCN from '../../src/core/locales/zh-CN'
import { FakePort } from '../core/registry/fake-port'

// What the background, the channel and the step engine report as codes is said in the UI
// language: these render each code in both languages, as the popup and panel do.

/** An English sentence left in Chinese text: two latin words in a row, outside the parameters filled in. */
const englishIn = (text: string, params: Record<string, unknown> = {}) => {
  let rest = text
  for (const v of Object.values(params)) rest = rest.split(String(v)).join(' ')
  return /[A-Za-z]{2,} [A-Za-z]{2,}/.test(rest)
}

afterAll(() => setLocale('en'))

const kBackgroundFailures: [string, Record<string, string | number>][] = [
  ['PACK_MISSING', { namespace: 'demo' }],
  ['PACK_URL_INVALID', { url: 'not a url' }],
  ['PACK_URL_PROTOCOL', { protocol: 'ftp:' }],
  ['PACK_FETCH_FAILED', { url: 'https://example.com/p.yaml', origin: 'https://example.com' }],
  ['PACK_HTTP', { url: 'https://example.com/p.yaml', status: 404 }],
  ['PACK_CHANGED', { namespace: 'demo' }],
  ['PACK_BUILTIN_ALWAYS_ON', { namespace: 'common' }],
  ['PACK_BUILTIN_UNDELETABLE', { namespace: 'common' }],
  ['CACHE_MISSING', { key: 'k1' }],
  ['CACHE_KEY_CHANGED', { key: 'k1' }],
  ['TAB_NOT_WEB', {}],
  ['PROFILE_MISSING', {}], // its id is internal, and not shown
  ['SETTINGS_NOT_JSON', {}],
  ['SETTINGS_NOT_JSON_AT', { line: 3, column: 6 }],
  ['CACHE_NOT_JSON', {}],
  ['CACHE_NOT_JSON_AT', { line: 12, column: 1 }],
  ['CACHE_INVALID', {}],
  ['VAULT_NAME_INVALID', { name: 'a b' }],
  ['VAULT_VALUE_TOO_LONG', { name: 'pw', max: 4096 }],
  ['VAULT_MISSING', { name: 'pw' }],
  ['VAULT_SITE_INVALID', { site: 'javascript:alert(1)' }],
]

describe('failures the background and the channel send, by code', () => {
  it('are said in Chinese with their parameters, never in the English sentence sent beside them', async () => {
    await setLocale('zh-CN')
    for (const [code, params] of kBackgroundFailures) {
      const text = failureText(new ProtocolError(code, 'The English sentence for logs.', params))
      expect(text, code).toBe(t(`failure.${code}` as keyof typeof en, params))
      expect(englishIn(text, params), `${code}: ${text}`).toBe(false)
      for (const v of Object.values(params)) expect(text, code).toContain(String(v))
    }
  })

  it('name the settings fields in the UI language and keep zod’s and JSON.parse’s own words behind Details', async () => {
    const issues = 'profiles.0.baseUrl: Invalid url; agent.stepLimit: Too big: expected number to be <=200'
    const params = { fields: 'profiles.0.baseUrl, agent.stepLimit', issues }
    await setLocale('zh-CN')
    const zh = failure(new ProtocolError('SETTINGS_FILE_REJECTED', `Settings file rejected: ${issues}`, params))
    expect(zh.text).toBe('设置文件无效，未做任何更改：请检查“接口地址”和“步骤上限”。')
    expect(zh.details).toBe(issues)
    expect(
      failure(
        new ProtocolError('SETTINGS_INVALID', 'x', {
          fields: 'profiles.0.model',
          issues: 'profiles.0.model: Required',
        }),
      ).text,
    ).toBe('设置未保存：请检查“模型”。')
    const notJson = failure(
      new ProtocolError('SETTINGS_NOT_JSON_AT', 'x', {
        reason: 'Unexpected token } in JSON at position 40',
        line: 3,
        column: 6,
      }),
    )
    expect(notJson.text).toBe('该文件不是 JSON（问题在第 3 行第 6 列），未做任何更改。')
    expect(notJson.details).toMatch(/position 40/)
    // A path with no label of ours is named as it is.
    expect(failure(new ProtocolError('SETTINGS_FILE_REJECTED', 'x', { fields: 'ui', issues: 'ui: bad' })).text).toBe(
      '设置文件无效，未做任何更改：请检查“ui”。',
    )
    await setLocale('en')
    const en = failure(new ProtocolError('SETTINGS_FILE_REJECTED', 'x', params))
    expect(en.text).toBe('Settings file rejected, nothing was changed: check “Base URL” and “Step limit”.')
    expect(en.details).toBe(issues)
  })

  it('say a failed verify with the pack’s own message, in Chinese when the pack has one', async () => {
    const e = {
      code: 'VERIFY_FAILED',
      action: 'common:auth:login',
      message: 'Still on the login form.',
      details: { messageZh: '仍停留在登录表单。' },
    }
    await setLocale('zh-CN')
    expect(failureLine(e)).toBe('仍停留在登录表单。')
    expect(failureLine({ ...e, details: {} })).toBe(t('action.failed', { reason: t('action.reason.VERIFY_FAILED') }))
    await setLocale('en')
    expect(failureLine(e)).toBe('Still on the login form.')
  })

  it('are said in English from the locale, not from the sender’s sentence', async () => {
    await setLocale('en')
    expect(failureText(new ProtocolError('PACK_MISSING', 'No pack "demo".', { namespace: 'demo' }))).toBe(
      'There is no pack “demo”.',
    )
    // The reply crosses the channel as plain data; the same object shape is read the same way.
    expect(failureText({ code: 'PACK_HTTP', message: 'x', params: { url: 'https://a.b/p', status: 500 } })).toBe(
      'https://a.b/p answered with HTTP 500.',
    )
  })

  it('say each channel code in both languages, never Chrome’s words', async () => {
    const chrome = [
      'Could not establish connection. Receiving end does not exist.',
      'A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received',
      'Extension context invalidated.',
      'Something else entirely',
    ]
    for (const lang of ['en', 'zh-CN'] as const) {
      await setLocale(lang)
      for (const said of chrome) {
        const e = channelError(new Error(said))
        const text = failureText(e)
        expect(text).toBe(t(`failure.${e.code}` as keyof typeof en))
        expect(text).not.toContain(said.slice(0, 20))
        if (lang === 'zh-CN') expect(englishIn(text), text).toBe(false)
      }
    }
  })

  it('keep their own words for a code the UI has no sentence for', async () => {
    await setLocale('zh-CN')
    expect(failureText(new ProtocolError('SOMETHING_NEW', 'Kept as sent.'))).toBe('Kept as sent.')
    expect(failureText(new Error('plain'))).toBe('plain')
  })
})

const kPack = `namespace: wd
version: 1.0.0
actions:
  old:click:
    description: An old name.
    deprecated: true
    deprecated_message: Use wd:new:click.
    deprecated_message_zh: 请改用 wd:new:click。
    alias_of: new:click
  new:click:
    description: Click, and go on when it fails.
    steps:
      - action: click
        onError: continue
        timeout: 50
        args:
          selector: "css:.missing"
      - action: getUrl
`

describe('run warnings, by code', () => {
  it('the engine reports each warning as a code with parameters beside its English', async () => {
    const registry = createRegistry()
    registry.load([{ source: 'user', files: [{ path: 'wd.yaml', text: kPack }] }])
    const result = await createEngine({ registry, port: new FakePort() }).run('wd:old:click')
    expect(result.success).toBe(true)
    expect(result.notices?.map((n) => n.code)).toEqual(['DEPRECATED', 'STEP_SKIPPED'])
    expect(result.notices?.map((n) => n.text)).toEqual(result.warnings)
    expect(result.notices?.[0].params).toEqual({
      action: 'wd:old:click',
      message: 'Use wd:new:click.',
      messageZh: '请改用 wd:new:click。',
    })
    expect(result.notices?.[1].params).toMatchObject({
      step: '1',
      action: 'click',
      parent: 'wd:new:click',
      reason: 'ELEMENT_NOT_FOUND',
    })

    await setLocale('zh-CN')
    const zh = result.notices!.map(noticeText)
    expect(zh[0]).toBe('wd:old:click 已弃用。请改用 wd:new:click。')
    expect(zh[1]).toBe('wd:new:click 的第 1 步（click）未成功，按操作包的设置已跳过：找不到目标元素。')
    await setLocale('en')
    expect(result.notices!.map(noticeText)).toEqual([
      'wd:old:click is deprecated. Use wd:new:click.',
      'Step 1 (click) of wd:new:click was skipped, as the pack allows: the element was not found.',
    ])
  })

  const notices: RunNotice[] = [
    { code: 'ALIAS', params: { action: 'a:b:c', target: 'a:b:d' }, text: 'x' },
    { code: 'STEP_FAILED_CONTINUED', params: { step: '2', action: 'fill', reason: 'TIMEOUT' }, text: 'x' },
    {
      code: 'WAIT_FELL_BACK',
      params: { step: '3', action: 'wait', parent: 'a:b:c', ms: 10_000, settleMs: 500, reason: 'TIMEOUT' },
      text: 'x',
    },
    { code: 'DEPRECATED', params: { action: 'a:b:c', message: 'Gone soon.' }, text: 'x' },
  ]
  it('every code reads as Chinese in the Chinese UI, durations in seconds', async () => {
    await setLocale('zh-CN')
    for (const n of notices) {
      const text = noticeText(n)
      expect(englishIn(text, n.params), `${n.code}: ${text}`).toBe(false)
      expect(text).not.toBe('x')
    }
    expect(noticeText(notices[2])).toContain('10.0 秒')
    // An English-only deprecation message is not shown in Chinese; the notice says what it can.
    expect(noticeText(notices[3])).toBe('a:b:c 已弃用。')
  })

  it('a code this UI does not know keeps the engine’s English', async () => {
    await setLocale('zh-CN')
    expect(noticeText({ code: 'NEW_KIND' as RunNotice['code'], params: {}, text: 'Kept.' })).toBe('Kept.')
  })
})

describe('a failed run, by code', () => {
  it('has a clause for every action error code in both languages', async () => {
    for (const lang of ['en', 'zh-CN'] as const) {
      await setLocale(lang)
      // Every code a pack run can end in has a clause (the list's `reason`).
      const actionCodes = kFailureCodes.filter((c) => (kFailures[c].say as FailureSpec['say']).reason)
      expect(actionCodes).toEqual(
        expect.arrayContaining([
          'ACTION_NOT_FOUND',
          'PARAM_REQUIRED',
          'ELEMENT_NOT_FOUND',
          'ELEMENT_STALE',
          'NOT_FOR_SITE',
          'VERIFY_FAILED',
        ]),
      )
      for (const code of actionCodes) {
        expect(reasonText(code), `${lang} ${code}`).not.toBe(code)
        if (lang === 'zh-CN') expect(englishIn(reasonText(code)), code).toBe(false)
      }
    }
  })

  it('names the step where it failed, in the UI language', async () => {
    await setLocale('zh-CN')
    expect(failureLine({ code: 'ELEMENT_NOT_FOUND', action: 'common:auth:login', step: 2, stepAction: 'click' })).toBe(
      '在 common:auth:login 的第 2 步（click）失败：找不到目标元素。',
    )
    expect(failureLine({ code: 'PARAM_REQUIRED', action: 'common:auth:login' })).toBe('失败：缺少必填参数。')
    await setLocale('en')
    expect(failureLine({ code: 'TIMEOUT', action: 'a:b:c' })).toBe('Failed: it timed out.')
  })
})

describe('validator issues, by code', () => {
  it('every code has a title in both locales', () => {
    for (const code of Object.keys(kIssueCodes)) {
      expect(en, code).toHaveProperty([`pack.issue.${code}`])
      expect(zhCN, code).toHaveProperty([`pack.issue.${code}`])
    }
  })

  it('a title says what is wrong and where, in the UI language', async () => {
    await setLocale('zh-CN')
    const issue = {
      code: 'UNKNOWN_FIELD' as const,
      path: ['actions', 'a:b', 'stepz'],
      message: 'Unknown field "stepz". Allowed: steps, …',
    }
    expect(issueTitle(issue)).toBe('未知字段（actions.a:b.stepz）')
    expect(issueTitle({ ...issue, path: [] })).toBe('未知字段')
    // In English the validator's own sentence is the UI language, and says more.
    await setLocale('en')
    expect(issueTitle(issue)).toBe(issue.message)
  })
})

describe('deprecation notes', () => {
  it('show the author’s message in its language only', async () => {
    const d = { action: 'x:y:z', message: 'Use x:y:w.', messageZh: '请改用 x:y:w。' }
    await setLocale('zh-CN')
    expect(deprecationNote(d)).toBe('x:y:z 已弃用。请改用 x:y:w。')
    expect(deprecationNote({ action: 'x:y:z', message: 'Use x:y:w.' })).toBe('x:y:z 已弃用。')
    await setLocale('en')
    expect(deprecationNote(d)).toBe('x:y:z is deprecated. Use x:y:w.')
  })
})

describe('a replayed flow’s question about a risky step', () => {
  it('is asked in the UI language, naming the flow and the element, as the agent asks', async () => {
    const say = (m: { key: string; params?: Record<string, string | number> }) =>
      t(m.key as keyof typeof en, m.params ?? {})
    await setLocale('zh-CN')
    expect(say(refusalAsk('登录流程', { category: 'credentials', label: 'Log in' }))).toBe(
      t('risk.ask.credentials', { step: '登录流程', target: 'Log in' }),
    )
    expect(say(refusalAsk('登录流程', { category: 'credentials', label: 'Log in' }))).toMatch(/^登录流程：/)
    expect(say(refusalAsk('EP login', { offsite: 'evil.example', carriesData: true }))).toBe(
      t('risk.ask.cross_site_form', { step: 'EP login', host: 'evil.example' }),
    )
    // A page that gave no category: the general question, never the page's English reason.
    const general = say(refusalAsk('EP login', {}))
    expect(englishIn(general, { step: 'EP login' })).toBe(false)
    await setLocale('en')
    expect(say(refusalAsk('EP login', { category: 'destructive', label: 'Delete' }))).toBe(
      'EP login: “Delete” may delete something.',
    )
  })
})

describe('a failed Test connection', () => {
  it('says why by its code in the UI language, and leaves an unknown code to the provider’s words', async () => {
    await setLocale('zh-CN')
    for (const code of ['NETWORK', 'TOKEN_INVALID', 'RATE_LIMITED', 'PROVIDER_ERROR', 'MODEL_TIMEOUT']) {
      const text = connectionFailure({ code })
      expect(text, code).toBeTruthy()
      expect(englishIn(text!), `${code}: ${text}`).toBe(false)
    }
    expect(connectionFailure({ code: 'SCHEMA' })).toBeNull()
    await setLocale('en')
    expect(connectionFailure({ code: 'TOKEN_INVALID' })).toBe('the provider refused the API key.')
  })
})

describe('counts', () => {
  it('agree with their number in English', async () => {
    await setLocale('en')
    expect(t('flow.draft', { n: 1 })).toBe('1 step recorded. Name the flow to save it as an action.')
    expect(t('flow.draft', { n: 3 })).toMatch(/^3 steps recorded/)
    expect(t('options.models.found', { n: 1 })).toBe('The endpoint offers 1 model.')
    expect(t('cache.hitCount', { n: 1 })).toBe('used once')
    expect(t('cache.stepCount', { n: 1 })).toBe('1 step')
    await setLocale('zh-CN')
    expect(t('flow.draft', { n: 3 })).toBe('已录制 3 个步骤。命名后即可保存为操作。')
  })

  it('no English message with a count is written as "{n} things" without its singular', () => {
    const counted = Object.entries(en).filter(([, v]) =>
      /\{(n|count)\} (steps|models|files|times|actions|entries|packs|flows|items|tabs|secrets)\b/.test(v),
    )
    expect(counted.filter(([, v]) => !v.includes('|')).map(([k]) => k)).toEqual([])
  })
})
