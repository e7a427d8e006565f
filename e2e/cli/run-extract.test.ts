import { afterAll, beforeAll, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromiumPath } from '../support/browser'
import { instructionChunks } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

// `ava run --schema` (docs/extraction.md): the built CLI runs Ava's agent headless with the model
// from the environment (the loopback server plays it) on a paged product list of three pages, and
// prints the rows as JSON on stdout; a field the page lacks is named, not invented; a schema Ava
// cannot read is one clear line and exit 2, before Chromium or the model is touched.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const bin = resolve(root, '.ava-out/e2e-run-extract/ava.js')

let site: SiteServer
let llm: LlmServer
let dir: string

async function ava(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, [bin, ...args], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        AVA_CHROMIUM: chromiumPath,
        AVA_ACTIONS_PATH: '',
        AVA_PROVIDER: 'openai',
        AVA_BASE_URL: llm.baseUrl,
        AVA_MODEL: 'test-model',
        AVA_API_KEY: 'k',
      },
      timeout: 150_000,
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

beforeAll(async () => {
  ;[site, llm] = await Promise.all([
    startSiteServer(),
    startLlmServer(),
    exec(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
      cwd: root,
      env: { ...process.env, AVA_CLI_OUTFILE: bin },
    }),
  ])
  dir = mkdtempSync(join(tmpdir(), 'ava-run-extract-'))
}, 60_000)

afterAll(async () => {
  await Promise.all([site?.close(), llm?.close()])
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** The first 30 products of e2e/fixtures/feed/products.html as a person reads them (its own generator). */
function products(n: number) {
  const words = ['Lamp', 'Kettle', 'Speaker', 'Router', 'Camera', 'Blender', 'Monitor', 'Drone', 'Watch', 'Charger']
  return Array.from({ length: n }, (_, i) => ({
    name: `${words[i % words.length]} model ${i + 1}`,
    price: ((i * 137) % 2500) + 0.99,
    rating: Number(((((i * 7) % 41) + 10) / 10).toFixed(1)),
  }))
}

test('ava run --schema extracts a list of three pages to the schema exactly, rows as JSON on stdout, the brand named as absent', async () => {
  writeFileSync(
    join(dir, 'product.json'),
    JSON.stringify({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1 },
        price: { type: 'number', minimum: 0 },
        rating: { type: 'number', maximum: 5 },
        brand: { type: 'string' },
      },
      required: ['name', 'price', 'rating'],
    }),
  )
  const next = { action_type: 'click', params: { fallback_selector: 'a#next' }, description: 'Next page' }
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'collect', params: { limit: 100 } },
        { step_id: 2, ...next },
      ]),
    },
    {
      chunks: instructionChunks([
        { step_id: 3, action_type: 'collect', params: { limit: 100 } },
        { step_id: 4, ...next },
      ]),
    },
    { chunks: instructionChunks([{ step_id: 5, action_type: 'collect', params: { limit: 100 } }]) },
    {
      chunks: instructionChunks([
        {
          step_id: 6,
          action_type: 'done',
          params: { answer: 'All three pages.', fields: { name: 0, price: 1, rating: 2, brand: null } },
        },
      ]),
    },
  )
  const r = await ava([
    'run',
    '--schema',
    'product.json',
    '--url',
    `${site.url}/feed/products.html?page=1`,
    '--ask',
    'Get the name, price and rating of every product',
  ])
  expect(r.code, r.stderr).toBe(0)
  const got = JSON.parse(r.stdout) as { rows: unknown[]; problems: unknown[]; absent: string[]; sources: unknown[] }
  expect(got.rows).toEqual(products(30))
  expect(got.problems).toEqual([])
  expect(got.absent).toEqual(['brand'])
  expect(got.sources).toHaveLength(30)
  expect(r.stderr).toContain('30 row(s) fit the schema')
  expect(JSON.stringify(llm.requests.at(-1)!.body)).toContain('untrusted_page_content')
}, 200_000)

test('a run that ends without rows exits 1 and prints no rows', async () => {
  writeFileSync(
    join(dir, 'name.json'),
    JSON.stringify({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
  )
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'ask', params: { question: 'Which list do you mean? I see none here.' } },
    ]),
  })
  const r = await ava(['run', '--schema', 'name.json', '--url', `${site.url}/feed/products.html?page=3`])
  expect(r.code).toBe(1)
  expect(r.stdout).toBe('')
  expect(r.stderr).toMatch(/^ava run: the run ended \(\w+\) without rows/)
  expect(r.stderr).toContain('The model asked you a question, but nobody can answer here')
}, 200_000)

test('a schema Ava cannot read is one clear line and exit 2, before the model is asked', async () => {
  writeFileSync(join(dir, 'tags.json'), JSON.stringify({ type: 'object', properties: { tags: { type: 'array' } } }))
  writeFileSync(join(dir, 'broken.json'), '{"type": "object",')
  const before = llm.requests.length
  const nested = await ava(['run', '--schema', 'tags.json', '--url', `${site.url}/feed/products.html`])
  expect(nested.code).toBe(2)
  expect(nested.stderr.trim()).toMatch(/^ava run: tags\.json: Field "tags" must be one of .*\(at \/properties\/tags\)$/)
  const broken = await ava(['run', '--schema', 'broken.json', '--url', `${site.url}/feed/products.html`])
  expect(broken.code).toBe(2)
  expect(broken.stderr.trim()).toMatch(/^ava run: broken\.json is not JSON: /)
  expect(nested.stdout + broken.stdout).toBe('')
  expect(llm.requests.length).toBe(before)
}, 60_000)
