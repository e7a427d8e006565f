/**
 * The `locate` bench's corpus is well formed: at least 400 cases, about half of them
 * in Chinese, and every expectation matches exactly one element of its page as rendered by the
 * real libraries. Does not run the matcher: `npm run bench -- locate` measures that.
 */
import { existsSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchBrowser } from '../support/browser'
import { startFixtureServer, type FixtureServer } from './server'
import {
  corpusErrors,
  countExpectations,
  langOf,
  loadCorpus,
  openCorpusPage,
  prepareCorpusTab,
  pythonDocsDir,
  servePages,
} from '../../bench/lib/locate-corpus'

const corpus = loadCorpus()
const cases = corpus.flatMap((p) => p.cases)
// Debian's python3.11-doc is a system package; without it those pages cannot be checked here.
const havePythonDocs = existsSync(pythonDocsDir)

let browser: Browser
let server: FixtureServer
let page: Page
beforeAll(async () => {
  ;[browser, server] = await Promise.all([launchBrowser(), startFixtureServer()])
  servePages(server)
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await prepareCorpusTab(page)
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe('locate corpus', () => {
  test('has at least 400 cases from the component libraries, the form libraries and the docs, half (±10 %) in Chinese', () => {
    expect(cases.length).toBeGreaterThanOrEqual(400)
    expect(new Set(corpus.map((p) => p.source))).toEqual(
      new Set([
        'element-plus',
        'ant-design-vue',
        'bootstrap',
        'naive-ui',
        'python-docs',
        'select2',
        'mui',
        'react-hook-form',
        'quill',
        'rtl',
        'icons',
      ]),
    )
    const zh = cases.filter((c) => langOf(c) === 'zh').length / cases.length
    expect(zh).toBeGreaterThanOrEqual(0.4)
    expect(zh).toBeLessThanOrEqual(0.6)
    // Every kind of descriptor the issue names is present: honest ambiguity, scope, ordinals, glyphs.
    expect(cases.filter((c) => c.ambiguous).length).toBeGreaterThanOrEqual(10)
    expect(cases.some((c) => /\bin the (dialog|row)|里的|那一行/.test(c.say))).toBe(true)
    expect(cases.some((c) => /\b(first|second|third)\b|第[一二三]个/.test(c.say))).toBe(true)
    expect(cases.some((c) => /\bthe x\b|«|关闭按钮/.test(c.say))).toBe(true)
  })

  // The fresh set (a reviewer's cases on pages outside the tuning) must be as well formed.
  for (const p of [...corpus, ...loadCorpus('fresh').map((f) => ({ ...f, file: `fresh/${f.file}` }))]) {
    test.skipIf(!!p.python && !havePythonDocs)(`${p.file}: every expectation matches exactly one element`, async () => {
      await openCorpusPage(page, server, p)
      expect(corpusErrors(p, await countExpectations(page, p.cases))).toEqual([])
    })
  }
})
