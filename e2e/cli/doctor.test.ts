import { afterAll, beforeAll, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromiumPath } from '../support/browser'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startOllamaServer, type OllamaServer } from '../support/ollama-server'
import type { Check } from '../../src/cli/doctor'

// `ava doctor` as built, against the loopback model servers: the Test connection request reaches
// the model (and its refusal is said as the options page says it), an Ollama that refuses the
// extension's origin is caught although Node itself is never refused, a missing Chromium and a
// broken native host are said with what to do, and the exit code follows what failed.

const root = resolve(import.meta.dirname, '../..')
const out = resolve(root, '.ava-out/e2e-doctor')
const bin = join(out, 'ava.js')

let llm: LlmServer
let ollama: OllamaServer
let home: string

function doctor(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [bin, 'doctor', ...args],
      {
        cwd: home,
        env: { PATH: process.env.PATH ?? '', HOME: home, AVA_CHROMIUM: chromiumPath, ...env },
        timeout: 120_000,
      },
      (error, stdout, stderr) => done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    )
  })
}

const checksOf = (stdout: string) => (JSON.parse(stdout) as { ok: boolean; checks: Check[] }).checks
const check = (checks: Check[], name: string) => checks.find((c) => c.name === name)!

beforeAll(async () => {
  mkdirSync(out, { recursive: true })
  const build = new Promise<void>((done, fail) =>
    execFile(
      process.execPath,
      [resolve(root, 'scripts/build-cli.mjs')],
      { cwd: root, env: { ...process.env, AVA_CLI_OUTFILE: bin } },
      (e) => (e ? fail(e) : done()),
    ),
  )
  ;[llm, ollama] = await Promise.all([startLlmServer(), startOllamaServer({ refuseExtensions: true }), build])
  home = mkdtempSync(join(tmpdir(), 'ava-doctor-'))
}, 120_000)

afterAll(async () => {
  await Promise.all([llm?.close(), ollama?.close()])
  if (home) rmSync(home, { recursive: true, force: true })
})

test('a working set-up: every check passes, the model answered the Test connection request', async () => {
  llm.script({ text: 'OK' })
  const before = llm.requests.length
  const r = await doctor(
    {
      AVA_PROVIDER: 'openai',
      AVA_BASE_URL: llm.baseUrl,
      AVA_MODEL: 'test-model',
      AVA_API_KEY: 'k',
      AVA_DIST: join(root, 'dist'),
    },
    '--json',
  )
  expect(r.code, r.stderr).toBe(0)
  const checks = checksOf(r.stdout)
  expect(checks.map((c) => [c.name, c.status])).toEqual([
    ['Node', 'ok'],
    ['Chromium', 'ok'],
    ['Extension', 'ok'],
    ['Model', 'ok'],
    ['Native host', 'warn'],
  ])
  expect(check(checks, 'Model').found).toMatch(new RegExp(`^Connected to test-model at ${llm.baseUrl} in \\d+ ms\\.$`))
  const sent = llm.requests.slice(before)
  expect(sent).toHaveLength(1)
  expect(JSON.stringify(sent[0].body)).toContain('Reply with the single word OK.')
  expect(r.stderr).toContain('ava doctor: nothing to fix')
}, 180_000)

test('a key the provider refuses fails the model check, said as Test connection says it, with where to read more', async () => {
  llm.script({ fault: 'http401' })
  const r = await doctor({
    AVA_PROVIDER: 'openai',
    AVA_BASE_URL: llm.baseUrl,
    AVA_MODEL: 'test-model',
    AVA_API_KEY: 'wrong',
  })
  expect(r.code).toBe(1)
  expect(r.stdout).toMatch(
    new RegExp(`^FAIL  Model +Tried ${llm.baseUrl}: the provider refused the API key\\. \\(TOKEN_INVALID: `, 'm'),
  )
  expect(r.stdout).toContain('see: docs/troubleshooting.md#the-model-cannot-be-reached')
  expect(r.stderr).toContain('ava doctor: 1 of 5 checks failed: Model')
}, 180_000)

test("an Ollama that answers Node but refuses the extension's origin is caught, with the setting that fixes it", async () => {
  ollama.script('OK')
  const env = { AVA_PROVIDER: 'local', AVA_BASE_URL: ollama.baseUrl, AVA_MODEL: 'qwen2.5:7b' }
  const refused = await doctor(env, '--json')
  expect(refused.code).toBe(1)
  const checks = checksOf(refused.stdout)
  expect(check(checks, 'Model').status).toBe('ok')
  expect(check(checks, 'Ollama origins')).toMatchObject({
    status: 'fail',
    fix: expect.stringContaining('OLLAMA_ORIGINS=chrome-extension://*'),
    docs: 'ollama-refuses-ava-http-403',
  })
  expect(ollama.requests.some((q) => q.path === '/api/tags' && q.origin?.startsWith('chrome-extension://'))).toBe(true)
  ollama.set({ refuseExtensions: false, models: ['qwen2.5:7b'] })
  ollama.script('OK')
  const allowed = await doctor(env, '--json')
  expect(check(checksOf(allowed.stdout), 'Ollama origins').status).toBe('ok')
  expect(allowed.code, allowed.stderr).toBe(0)
}, 180_000)

test('no Chromium, and a model named by its former variable: said, with the install command', async () => {
  const r = await doctor({ AVA_CHROMIUM: join(home, 'no-such-chromium'), AVA_MODEL_PROVIDER: 'gemini' })
  expect(r.code).toBe(1)
  expect(r.stdout).toMatch(/^FAIL {2}Chromium +no Chromium at .*no-such-chromium \(from AVA_CHROMIUM\)\.$/m)
  expect(r.stdout).toContain('fix: install it (Debian/Ubuntu: sudo apt-get install chromium)')
  expect(r.stdout).toContain('see: docs/troubleshooting.md#no-chromium')
  expect(r.stdout).toMatch(/^FAIL {2}Model +AVA_PROVIDER must be one of anthropic, openai, local, not "gemini"$/m)
  expect(r.stderr).toContain(
    'ava: warning: AVA_MODEL_PROVIDER is read as AVA_PROVIDER, its new name; set AVA_PROVIDER instead (docs/environment.md)',
  )
}, 180_000)

test('the native host: installed is ok; a host whose files are gone is a warning that says to install again', async () => {
  const id = 'abcdefghijklmnopabcdefghijklmnop'
  await new Promise<void>((done, fail) =>
    execFile(
      process.execPath,
      [bin, 'mcp', 'install', '--extension-id', id],
      { cwd: home, env: { PATH: process.env.PATH ?? '', HOME: home } },
      (e) => (e ? fail(e) : done()),
    ),
  )
  const ok = check(checksOf((await doctor({}, '--json')).stdout), 'Native host')
  expect(ok.status).toBe('ok')
  expect(ok.found).toContain(`(extension ${id})`)
  const manifest = JSON.parse(
    readFileSync(join(home, '.config/chromium/NativeMessagingHosts/com.ava_assistant.bridge.json'), 'utf8'),
  ) as { path: string }
  rmSync(join(home, '.ava/native-host/ava-native-host.mjs'))
  const broken = check(checksOf((await doctor({}, '--json')).stdout), 'Native host')
  expect(broken.status).toBe('warn')
  expect(broken.found).toContain('ava-native-host.mjs missing')
  expect(broken.fix).toContain('ava mcp install --extension-id <id>')
  expect(manifest.path).toContain(home)
}, 180_000)
