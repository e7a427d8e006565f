/**
 * The locate corpus: (page, descriptor, expected element) cases on pages this project
 * did not design, read from bench/locate/cases/*.yaml (and the fresh set, bench/locate/fresh/cases). Shared by the `locate` bench suite and the
 * e2e test that checks the corpus is well formed.
 *
 * A case file names one page and its cases:
 *   page: bs-form.html               a file in bench/locate/pages/, served with the vendor builds
 *   python: library/os.html          or a page of Debian's python3.11-doc, opened from disk
 *   source: bootstrap                the library (or `python-docs`) the page is built from
 *   ready: .card                     selector to wait for before anything (client-rendered pages)
 *   setup: ['#open-menu']            selectors clicked, in order, before the cases (open a menu)
 *   observe: true                    read the page as the agent does before its steps (Observe tags
 *                                    what it finds clickable by cursor rules and listeners)
 *   cases:
 *     - say: the Save button         the descriptor, as a person says it
 *       at: '#save'                  the expected element: CSS, or XPath when it starts with / or (
 *       field: true                  the target is typed into: no fallback to plain text
 *     - say: Delete
 *       ambiguous: ['css', 'css']    the honest answer is AMBIGUOUS; each must match one element
 *     - say: the next link
 *       either: ['css', 'css']       equivalent elements (the same link at the top and the bottom):
 *                                    any of them is found; AMBIGUOUS between them is ambiguous
 *     - say: Built-in Functions
 *       absent: true                 the page has no such element: any failure is found, any element wrong
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parse } from 'yaml'
import type { Page } from 'playwright-core'
import type { FixtureServer } from '../../e2e/executor/server'
import { listenersMainScript } from './listeners-main'

export const locateDir = resolve(import.meta.dirname, '../locate')
export const pythonDocsDir = '/usr/share/doc/python3.11/html'

export interface LocateCase {
  say: string
  at?: string
  ambiguous?: string[]
  either?: string[]
  absent?: boolean
  field?: boolean
  /** The descriptor's language when it is not what its characters say (`the 查询 button` is English). */
  lang?: 'zh' | 'en'
}

export interface CorpusPage {
  file: string
  page?: string
  python?: string
  source: string
  ready?: string
  setup?: string[]
  observe?: boolean
  cases: LocateCase[]
}

/** Chinese when the descriptor has any CJK character. */
export function langOf(c: LocateCase): 'zh' | 'en' {
  const say = c.say
  if (c.lang) return c.lang
  return /[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/.test(say) ? 'zh' : 'en'
}

/**
 * `corpus`: bench/locate/cases, the set the matcher was tuned on. `fresh`: bench/locate/fresh, a
 * reviewer's cases on pages the tuning never saw, reported apart so overfitting shows.
 */
export type CorpusSet = 'corpus' | 'fresh'
const setDir = (set: CorpusSet) => (set === 'fresh' ? resolve(locateDir, 'fresh') : locateDir)

export function loadCorpus(set: CorpusSet = 'corpus'): CorpusPage[] {
  const dir = resolve(setDir(set), 'cases')
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => {
      let doc: Omit<CorpusPage, 'file'>
      try {
        doc = parse(readFileSync(resolve(dir, f), 'utf8')) as Omit<CorpusPage, 'file'>
      } catch (e) {
        throw new Error(`${f}: ${(e as Error).message}`, { cause: e })
      }
      if (!doc?.source || !(doc.page || doc.python) || !Array.isArray(doc.cases)) throw new Error(`${f}: needs source, page or python, and cases`)
      for (const c of doc.cases) {
        if (typeof c.say !== 'string' || !c.say.trim()) throw new Error(`${f}: a case without a descriptor: ${JSON.stringify(c)}`)
        if ([c.at, c.ambiguous, c.either, c.absent].filter(Boolean).length !== 1) throw new Error(`${f}: "${c.say}" needs exactly one of at / ambiguous / either / absent`)
        const list = c.ambiguous ?? c.either
        if (list && (!Array.isArray(list) || list.length < 2)) throw new Error(`${f}: "${c.say}" ambiguous / either needs two or more elements`)
      }
      return { file: f, ...doc }
    })
}

/** Serves every page of both sets (bench/locate/pages, bench/locate/fresh/pages) under /locate/. */
export function servePages(server: FixtureServer): void {
  for (const set of ['corpus', 'fresh'] as const) {
    const dir = resolve(setDir(set), 'pages')
    for (const f of readdirSync(dir)) if (f.endsWith('.html')) server.page(`/locate/${f}`, readFileSync(resolve(dir, f), 'utf8'))
  }
}

export function pageUrl(server: FixtureServer, p: CorpusPage): string {
  if (p.python) {
    const [path, query] = p.python.split('?')
    const file = resolve(pythonDocsDir, path)
    if (!existsSync(file)) throw new Error(`${p.file}: ${file} is missing; install Debian's python3.11-doc (apt-get install python3.11-doc).`)
    return pathToFileURL(file).href + (query ? `?${query}` : '')
  }
  return server.url(`/locate/${p.page}`)
}

/**
 * tsx compiles with keepNames, so the functions passed to page.evaluate call a `__name` helper
 * that exists only in Node; give every page a no-op one.
 */
export async function prepareCorpusTab(page: Page): Promise<void> {
  await page.addInitScript({ content: 'window.__name = (f) => f' })
  // Listener hints as the extension gathers them from document_start (read by pages with `observe: true`).
  await page.addInitScript({ content: await listenersMainScript() })
}

/** Opens the page, waits for it, runs its setup clicks and lets transitions end. */
export async function openCorpusPage(page: Page, server: FixtureServer, p: CorpusPage): Promise<void> {
  await page.goto(pageUrl(server, p), { waitUntil: 'load' })
  if (p.ready) await page.waitForSelector(p.ready, { state: 'attached', timeout: 15_000 })
  for (const sel of p.setup ?? []) {
    await page.click(sel, { timeout: 5_000 })
    await page.waitForTimeout(150)
  }
  // Vue transitions (dialogs, dropdowns) run ~300 ms; a person reads the page after them.
  await page.waitForTimeout(p.setup?.length || p.ready ? 500 : 50)
}

export interface Expectation {
  say: string
  /** Elements each expectation selector matched, in order (one each when well formed). */
  counts: number[]
}

/** The selectors of a case's expected element(s). */
export function expected(c: LocateCase): string[] {
  return c.at ? [c.at] : (c.ambiguous ?? c.either ?? [])
}

/** Counts what each expectation selector matches in the page (evaluated in the page). */
export async function countExpectations(page: Page, cases: LocateCase[]): Promise<Expectation[]> {
  const sels = cases.map(expected)
  const counts = await page.evaluate((sels) => {
    const count = (sel: string) => {
      try {
        if (sel.startsWith('/') || sel.startsWith('(')) return document.evaluate(`count(${sel})`, document, null, XPathResult.NUMBER_TYPE, null).numberValue
        return document.querySelectorAll(sel).length
      } catch {
        return -1
      }
    }
    return sels.map((list) => list.map(count))
  }, sels)
  return cases.map((c, i) => ({ say: c.say, counts: counts[i] }))
}

/** The corpus errors of one page: expectations that match no element, several, or are invalid. */
export function corpusErrors(p: CorpusPage, found: Expectation[]): string[] {
  const out: string[] = []
  found.forEach((e, i) => {
    const c = p.cases[i]
    const sels = expected(c)
    e.counts.forEach((n, j) => {
      if (n !== 1) out.push(`${p.file}: "${e.say}": ${sels[j]} ${n < 0 ? 'is not a valid selector' : `matches ${n} elements`}`)
    })
  })
  return out
}
