/**
 * Suite `locate`: how well a descriptor, as a person says it, finds the element meant
 * on pages nobody wrote for Ava (bench/locate: Element Plus, Ant Design Vue, Bootstrap, Naive UI,
 * Debian's Python docs). Each case runs the executor's real locate ladder (semantic rung) in the
 * page, with a short timeout, and is one of:
 *   found      the located element is the expected one (or one of equivalent ones), inside it, or
 *              the control it labels; for a case whose honest answer is "ambiguous", AMBIGUOUS;
 *   ambiguous  AMBIGUOUS where one element was meant (not found, not wrong);
 *   wrong      another element (for an ambiguous case: any single element, a guess);
 *   missed     nothing; split by whether candidates came back for the AI fallback.
 * Prints the counts overall, per source and per language, the median locate time, and every wrong
 * and missed case with its candidates. A case whose expectation does not match exactly one element
 * is a corpus error: printed, and the suite stops. The fresh set (bench/locate/fresh: two
 * reviewers' cases on pages the matcher was never tuned on, the second's files named `t3-*`) is
 * reported apart as `locate fresh …`.
 *
 *   npm run bench -- locate [--timeout <ms>] [--only <case-file substring>] [--json]
 */
import { launchBrowser } from '../e2e/support/browser'
import { inject } from '../e2e/executor/bundle'
import { startFixtureServer } from '../e2e/executor/server'
import {
  countExpectations,
  corpusErrors,
  langOf,
  loadCorpus,
  openCorpusPage,
  prepareCorpusTab,
  servePages,
  type CorpusSet,
  type LocateCase,
} from './lib/locate-corpus'
import { median, report } from './lib/report'

const suite = 'locate'
const json = process.env.AVA_BENCH_JSON === '1'
const argv = process.argv.slice(2)
const arg = (name: string) => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : undefined
}
/** Short: the page is settled before the cases run, so waiting only prices misses. */
const timeoutMs = Number(arg('--timeout') ?? 100)
const only = arg('--only')

type Outcome = 'found' | 'ambiguous' | 'wrong' | 'missed'
interface Ran {
  outcome: Outcome
  ms: number
  got?: string
  code?: string
  candidates: { label: string; score: number; why?: string }[]
}
interface Row extends Ran {
  set: CorpusSet
  file: string
  source: string
  lang: 'zh' | 'en'
  c: LocateCase
}

const corpus = (['corpus', 'fresh'] as const)
  .flatMap((set) => loadCorpus(set).map((p) => ({ ...p, set })))
  .filter((p) => !only || p.file.includes(only))
const [browser, server] = await Promise.all([launchBrowser(), startFixtureServer()])
const rows: Row[] = []
try {
  servePages(server)
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await prepareCorpusTab(page)
  for (const p of corpus) {
    await openCorpusPage(page, server, p)
    const errors = corpusErrors(p, await countExpectations(page, p.cases))
    if (errors.length) {
      console.error(`Corpus error (every expectation must match exactly one element):\n  ${errors.join('\n  ')}`)
      process.exitCode = 1
      break
    }
    await inject(page)
    const ran = await page.evaluate(
      async ({ cases, timeoutMs, observe }) => {
        const x = (window as any).__avaExec
        // Read the page as the agent does before a step: the boot script's request for listener hints, then Observe.
        if (observe) {
          x.watchListenerHints(document, true)
          x.observe()
        }
        const one = (sel: string): Element => {
          if (sel.startsWith('/') || sel.startsWith('('))
            return document.evaluate(sel, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null)
              .singleNodeValue as Element
          return document.querySelector(sel)!
        }
        const describe = (el: Element) => {
          const id = el.id ? `#${el.id}` : ''
          const cls =
            typeof el.className === 'string' && el.className.trim()
              ? `.${el.className.trim().split(/\s+/).slice(0, 2).join('.')}`
              : ''
          const text = (el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? el.textContent ?? '')
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, 40)
          return `<${el.tagName.toLowerCase()}${id}${cls}> "${text}"`
        }
        // The located element is the expected one, inside it, or a control it labels (both ways:
        // a click on a <label> acts on its control).
        const hits = (exp: Element, el: Element) => {
          if (exp === el || exp.contains(el)) return true
          const labels = (el as HTMLInputElement).labels
          if (labels && [...labels].some((l) => exp === l || exp.contains(l))) return true
          const control = (el as HTMLLabelElement).control
          return !!control && (exp === control || exp.contains(control))
        }
        const out = []
        for (const c of cases) {
          const t0 = performance.now()
          const r = await x.locate({ semantic: c.say }, { timeoutMs, allowText: !c.field })
          const ms = performance.now() - t0
          const candidates = (r.candidates ?? []).map((k: any) => ({
            label: String(k.label ?? ''),
            score: Number(k.score ?? 0),
            why: k.why ? String(k.why) : undefined,
          }))
          let outcome: string
          let got: string | undefined
          if (r.ok === false) {
            outcome =
              c.absent || (r.code === 'AMBIGUOUS' && c.ambiguous)
                ? 'found'
                : r.code === 'AMBIGUOUS'
                  ? 'ambiguous'
                  : 'missed'
          } else {
            got = describe(r.el)
            const right = c.at ? [c.at] : (c.either ?? [])
            outcome = right.some((sel: string) => hits(one(sel), r.el)) ? 'found' : 'wrong'
          }
          out.push({ outcome, ms, got, code: r.ok === false ? r.code : undefined, candidates })
        }
        return out
      },
      { cases: p.cases, timeoutMs, observe: !!p.observe },
    )
    ran.forEach((r, i) =>
      rows.push({ ...(r as Ran), set: p.set, file: p.file, source: p.source, lang: langOf(p.cases[i]), c: p.cases[i] }),
    )
  }
} finally {
  await Promise.all([browser.close(), server.close()])
}

if (process.exitCode !== 1) {
  const mine = rows.filter((r) => r.set === 'corpus')
  const groups: [string, Row[]][] = [['all', mine]]
  for (const s of [...new Set(mine.map((r) => r.source))])
    groups.push([`source:${s}`, mine.filter((r) => r.source === s)])
  for (const l of ['en', 'zh']) groups.push([`lang:${l}`, mine.filter((r) => r.lang === l)])
  const fresh = rows.filter((r) => r.set === 'fresh')
  groups.push(['fresh', fresh])
  for (const l of ['en', 'zh']) groups.push([`fresh:lang:${l}`, fresh.filter((r) => r.lang === l)])
  for (const [name, rs] of groups) {
    const n = (o: Outcome) => rs.filter((r) => r.outcome === o).length
    report({ suite, case: name, metric: 'cases', value: rs.length, unit: 'cases' })
    for (const o of ['found', 'ambiguous', 'wrong', 'missed'] as const)
      report({ suite, case: name, metric: o, value: n(o), unit: 'cases' })
    report({
      suite,
      case: name,
      metric: 'missed_without_candidates',
      value: rs.filter((r) => r.outcome === 'missed' && !r.candidates.length).length,
      unit: 'cases',
    })
    report({ suite, case: name, metric: 'found_pct', value: rs.length ? (100 * n('found')) / rs.length : 0, unit: '%' })
  }
  report({ suite, case: 'all', metric: 'locate_median_ms', value: median(mine.map((r) => r.ms)), unit: 'ms' })
  report({
    suite,
    case: 'all',
    metric: 'locate_median_found_ms',
    value: median(mine.filter((r) => r.outcome === 'found').map((r) => r.ms)) || 0,
    unit: 'ms',
  })
  report({ suite, case: 'fresh', metric: 'locate_median_ms', value: median(fresh.map((r) => r.ms)), unit: 'ms' })
  if (!json) {
    // AVA_BENCH_WHY=1: each candidate's reason too (which words matched where), for tuning.
    const why = process.env.AVA_BENCH_WHY === '1'
    const cands = (r: Row) =>
      r.candidates.length
        ? r.candidates.map((k) => `"${k.label}" ${k.score.toFixed(2)}${why && k.why ? ` (${k.why})` : ''}`).join('; ')
        : 'none'
    for (const o of ['wrong', 'ambiguous', 'missed'] as const) {
      const rs = rows.filter((r) => r.outcome === o)
      if (!rs.length) continue
      console.log(`\n${o.toUpperCase()} (${rs.length})`)
      for (const r of rs) {
        const expected =
          r.c.at ??
          (r.c.ambiguous
            ? `ambiguous: ${r.c.ambiguous.join(' | ')}`
            : r.c.either
              ? `either: ${r.c.either.join(' | ')}`
              : 'no element')
        console.log(
          `  ${r.set === 'fresh' ? 'fresh/' : ''}${r.file} "${r.c.say}" expected ${expected}${r.got ? `, got ${r.got}` : ''}${r.code ? ` [${r.code}]` : ''}\n      candidates: ${cands(r)}`,
        )
      }
    }
  }
}
