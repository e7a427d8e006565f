// `ava run --schema <file.json> --url <start> [--ask "<request>"]`: Ava's own agent, headless, with
// the model from the environment, asked for rows in a shape (docs/extraction.md). The run is
// `ava mcp`'s askAva on a Chromium of its own: every step passes the run's gate, and a risky one
// is taken only when --allow names its category. The rows go to stdout as one JSON document.
import { readFileSync } from 'node:fs'
import { kExit, type Io, type Parsed } from './args'
import { parseShape, ShapeError } from '../core/extract/shape'
import { DEFAULT_SETTINGS } from '../core/settings'
import { unattendedAnswer } from '../core/gate/guard'
import { askAva, modelFromEnv } from './mcp/agent'
import { tabOf } from './mcp/place'
import { loadRegistry } from './mcp/tools/context'
import { allowedOf } from './unattended'
import { chromiumPath, kBrowserArgs, kPageScript, kViewport } from './playwright-page'
import { failUnexpected, openStart } from './run'
import { displayPath } from './sources'

/** The schema file as a JSON Schema Ava can read, or the one line that says what is wrong with it. */
export function readSchemaFile(path: string): Record<string, unknown> | string {
  let raw: string
  try {
    raw = readFileSync(path, 'utf8')
  } catch {
    return `cannot read the schema file ${displayPath(path)}`
  }
  let schema: unknown
  try {
    schema = JSON.parse(raw)
  } catch (e) {
    return `${displayPath(path)} is not JSON: ${(e as Error).message}`
  }
  try {
    parseShape(schema)
  } catch (e) {
    if (e instanceof ShapeError) return `${displayPath(path)}: ${e.message}${e.path ? ` (at ${e.path})` : ''}`
    throw e
  }
  return schema as Record<string, unknown>
}

export async function runExtractCli(parsed: Parsed, io: Io): Promise<number> {
  const { values, positionals } = parsed
  const usage = (line: string) => (io.err(`ava run: ${line}`), kExit.usage)
  if (positionals.length) return usage("--schema runs Ava's agent: give no flow, pack or action with it")
  const schema = readSchemaFile(values.schema as string)
  if (typeof schema === 'string') return usage(schema)
  const url = values.url as string | undefined
  if (!url) return usage('give the page to start on with --url')
  const allowed = allowedOf(values)
  if (typeof allowed === 'string') return usage(allowed)
  const llm = modelFromEnv()
  if (typeof llm !== 'object')
    return usage(
      llm ??
        '--schema needs a model: set AVA_PROVIDER (openai, anthropic or local), AVA_BASE_URL, AVA_MODEL and AVA_API_KEY (docs/environment.md).',
    )
  if (kPageScript === undefined) {
    io.err('ava run: the page script is built into bin/ava.js: run `npm run build:cli`, then `node bin/ava.js run …`')
    return kExit.failed
  }
  const executable = chromiumPath({ browser: values.browser as string | undefined })
  if (typeof executable === 'string') {
    io.err(`ava run: ${executable}`)
    return kExit.failed
  }
  const fields = parseShape(schema).fields.map((f) => f.name)
  const request = (values.ask as string | undefined) ?? `Get the ${fields.join(', ')} of every item`
  const { chromium } = await import('playwright-core')
  const browser = await chromium
    .launch({ executablePath: executable.path, headless: !values.headed, args: kBrowserArgs })
    .catch((e: Error) => e)
  if (browser instanceof Error) {
    io.err(`ava run: Chromium at ${executable.path} did not start: ${browser.message.split('\n')[0]}`)
    return kExit.failed
  }
  try {
    const context = await browser.newContext({ viewport: kViewport })
    await context.addInitScript({ content: kPageScript })
    const page = await context.newPage()
    const notOpen = await openStart(page, url, io)
    if (notOpen) {
      io.err(`ava run: ${notOpen}`)
      return kExit.failed
    }
    // Nobody is there to answer: a risky step is taken only when --allow names its category.
    const answer = unattendedAnswer(allowed, (category) => `running ava run with --allow ${category ?? 'all'}`)
    const r = await askAva(request, {
      tab: tabOf(() => page),
      llm,
      registry: loadRegistry(),
      asker: { ask: async ({ category, offsite }) => answer({ category, offsite }) },
      secrets: [],
      stepLimit: DEFAULT_SETTINGS.agent.stepLimit,
      signal: new AbortController().signal,
      shape: schema,
    })
    const got = r.extraction
    if (!got) {
      io.err(`ava run: the run ended (${r.status}) without rows${r.code ? ` (${r.code})` : ''}.`)
      for (const line of [r.answer, ...r.notes].filter(Boolean)) io.err(`  ${line}`)
      return kExit.failed
    }
    io.out(
      JSON.stringify({ rows: got.rows, sources: got.sources, problems: got.problems, absent: got.absent }, null, 2),
    )
    io.err(
      `ava run: ${got.rows.length} row(s) fit the schema; ${got.problems.length} value(s) did not fit${
        got.absent.length ? `; the page does not have: ${got.absent.join(', ')}` : ''
      }`,
    )
    return kExit.ok
  } catch (e) {
    failUnexpected('ava run', e, io)
    return kExit.failed
  } finally {
    await browser.close().catch(() => undefined)
  }
}
