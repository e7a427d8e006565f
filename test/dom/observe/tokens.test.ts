// @vitest-environment happy-dom
// The page-side estimator against the exact o200k count on realistic listings.
import { beforeEach, expect, test } from 'vitest'
import { serialize } from '../../../src/core/page/serialize'
import { estimateTokens } from '../../../src/core/page/tokens-estimate'
import { clearAgentIds, observe } from '../../../src/dom/observe'
import { countTokens } from '../../../bench/lib/tokens'
import { tablePage, syntheticPage } from '../../../bench/lib/observe-pages'
import { page } from './helpers'

/** The estimator may under-count by at most this share ("no more than a few percent"). */
const kMaxUnder = 0.03
/** And should not waste more than this share of the budget by over-counting. */
const kMaxOver = 0.6

const body = (html: string) => html.replace(/^[\s\S]*<body>|<\/body>[\s\S]*$/g, '')

const listings: Array<[string, () => string]> = [
  ['order table', () => body(tablePage(120))],
  ['content site', () => body(syntheticPage(1500))],
  [
    'chinese form',
    () =>
      '<header><nav><a href="/">首页</a><a href="/n">新闻中心</a><a href="/h">帮助与反馈</a></nav></header><main><form aria-label="用户注册"><input placeholder="请输入手机号码">' +
      '<input type="password" placeholder="设置密码"><input type="password" placeholder="确认密码"><label><input type="checkbox"> 我已阅读并同意《用户协议》</label><button>立即注册</button></form>' +
      Array.from(
        { length: 40 },
        (_, i) => `<li><a href="/a/${i}">第${i}篇：如何在三分钟内完成账户设置与安全验证</a> <button>收藏</button></li>`,
      ).join('') +
      '</main>',
  ],
  [
    'mixed labels',
    () =>
      Array.from(
        { length: 60 },
        (_, i) =>
          `<div><button aria-label="Download report Q${i % 4} (PDF, ${i * 13} KB)">↓</button><input value="user${i}@example.com" aria-label="E-mail #${i}"></div>`,
      ).join(''),
  ],
]

beforeEach(() => clearAgentIds())

test.each(listings)(
  '%s: the estimate is at most 3 percent under and 60 percent over the exact count',
  (_name, html) => {
    const snap = observe({ root: page(html(), { url: 'https://site.test/page', title: 'Page' }) })
    for (const budget of [Infinity, 1500]) {
      const text = serialize(snap, { budgetTokens: budget }).text
      const exact = countTokens(text)
      const estimate = estimateTokens(text)
      expect(estimate).toBeGreaterThanOrEqual(Math.floor(exact * (1 - kMaxUnder)))
      expect(estimate).toBeLessThanOrEqual(Math.ceil(exact * (1 + kMaxOver)))
    }
  },
)

test('countTokens is the o200k count', () => {
  expect(countTokens('hello world')).toBe(2)
  expect(countTokens('')).toBe(0)
})
