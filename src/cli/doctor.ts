// `ava doctor`: checks each part a first run needs and says what to fix (docs/troubleshooting.md).
// The model is checked with the request Test connection sends (src/model/llm.ts), so a model
// that passes here answers the extension's Test connection too, save for the browser's origin,
// which is checked on its own against Ollama.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { modelFromEnvironment, readEnvironment } from '../core/environment'
import type { Msg } from '../core/chat'
import { AvaError } from '../core/errors'
import { failureOf, troubleshootingPage, type TroubleshootingSection } from '../core/failure'
import { renderEn } from '../core/locales/render'
import type { LlmSettings } from '../core/settings'
import { requestTest } from '../model/llm'
import { kExit, type Io, type Parsed } from './args'
import { hostFolders, kHostName } from './mcp/native'
import { chromiumPath } from './playwright-page'

/** The oldest Node Ava runs on: package.json `engines` (test/cli/doctor.test.ts keeps the two equal). */
export const kMinNode = '20.19.0'
/** Ollama answers an extension only when OLLAMA_ORIGINS allows its origin (Ollama's FAQ, "allow additional web origins"). */
const kOllamaOrigins = 'OLLAMA_ORIGINS=chrome-extension://*'
/** An origin of the form the extension sends: any extension id, since Ollama's check is by pattern. */
const kProbeOrigin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop'

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip'

export interface Check {
  name: string
  status: CheckStatus
  /** What was found, one line. */
  found: string
  /** What to do about it (warn and fail). */
  fix?: string
  /** The section of docs/troubleshooting.md about it. */
  docs?: TroubleshootingSection
}

const execFileP = promisify(execFile)

function newer(version: string, than: string): boolean {
  const a = version.replace(/^v/, '').split('.').map(Number)
  const b = than.split('.').map(Number)
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0)
  return true
}

export function checkNode(version = process.versions.node): Check {
  return newer(version, kMinNode)
    ? { name: 'Node', status: 'ok', found: `Node ${version}` }
    : {
        name: 'Node',
        status: 'fail',
        found: `Node ${version}, older than Ava needs (${kMinNode})`,
        fix: `install Node ${kMinNode} or later (https://nodejs.org, or your version manager)`,
      }
}

export async function checkChromium(browser: string | undefined): Promise<Check> {
  const found = chromiumPath({ browser })
  if (typeof found === 'string')
    return {
      name: 'Chromium',
      status: 'fail',
      found: found.replace(/ Install it.*$/, ''),
      fix: 'install it (Debian/Ubuntu: sudo apt-get install chromium), or point AVA_CHROMIUM (or --browser) at a Chromium or Chrome for Testing',
      docs: 'no-chromium',
    }
  const version = await execFileP(found.path, ['--version'], { timeout: 20_000 }).then(
    (r) => r.stdout.trim(),
    () => undefined,
  )
  return version
    ? { name: 'Chromium', status: 'ok', found: `${version} at ${found.path}` }
    : {
        name: 'Chromium',
        status: 'fail',
        found: `${found.path} does not run (\`--version\` failed)`,
        fix: 'reinstall it, or point AVA_CHROMIUM at another one',
        docs: 'no-chromium',
      }
}

/** The package's own folder: where bin/ava.js (or src/cli/ava.ts) sits, up to its package.json. */
export function packageRoot(from = process.argv[1] ?? ''): string | undefined {
  let dir = dirname(existsSync(from) ? realpathSync(from) : from)
  for (;;) {
    const pkg = join(dir, 'package.json')
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'ava-assistant')
      return dir
    const up = dirname(dir)
    if (up === dir) return undefined
    dir = up
  }
}

export function checkExtension(dist: string | undefined): Check {
  if (!dist)
    return {
      name: 'Extension',
      status: 'fail',
      found: 'no built extension: not run from the ava-assistant package, and AVA_DIST is not set',
      fix: 'point AVA_DIST at an unpacked Ava (a folder with manifest.json), or run `npm run build` in its repository',
    }
  const manifest = join(dist, 'manifest.json')
  if (!existsSync(manifest))
    return {
      name: 'Extension',
      status: 'fail',
      found: `no built extension in ${dist}`,
      fix: "run `npm run build` in Ava's repository, or point AVA_DIST at an unpacked Ava (the package ships one in dist/)",
    }
  const m = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string; manifest_version?: number }
  return {
    name: 'Extension',
    status: 'ok',
    found: `Ava ${m.version ?? '?'} (Manifest V${m.manifest_version ?? '?'}) in ${dist}; load it at chrome://extensions → Load unpacked`,
  }
}

/** The model named in the environment, asked what Test connection asks. */
export async function checkModel(llm: LlmSettings | string | undefined): Promise<Check> {
  if (llm === undefined)
    return {
      name: 'Model',
      status: 'skip',
      found: 'no model named in the environment (AVA_PROVIDER); the extension uses the one set in its options',
      fix: 'to check one, set AVA_PROVIDER, AVA_BASE_URL, AVA_API_KEY and AVA_MODEL (docs/environment.md)',
      docs: 'no-model',
    }
  if (typeof llm === 'string')
    return {
      name: 'Model',
      status: 'fail',
      found: llm,
      fix: 'set AVA_PROVIDER to openai, anthropic or local (docs/environment.md)',
      docs: 'no-model',
    }
  const started = Date.now()
  try {
    const r = await requestTest(llm, new AbortController().signal)
    return {
      name: 'Model',
      status: 'ok',
      found: renderEn({
        key: 'options.testOk',
        params: { model: r.model, endpoint: llm.baseUrl, ms: Date.now() - started },
      }),
    }
  } catch (e) {
    const error = e instanceof AvaError ? e : new AvaError('UNKNOWN', String(e))
    const said = (error.details?.msg as Msg | undefined) ?? {
      key: failureOf(error.code).say.test ?? failureOf(error.code).say.run ?? 'outcome.error.UNKNOWN',
    }
    const sentence = renderEn({ key: 'options.testFailed', params: { endpoint: llm.baseUrl, message: renderEn(said) } })
    return {
      name: 'Model',
      status: 'fail',
      found: `${sentence} (${error.code}: ${error.message})`,
      fix: "check AVA_BASE_URL, AVA_API_KEY and AVA_MODEL; the extension's Test connection sends the same request",
      docs: failureOf(error.code).docs ?? 'the-model-cannot-be-reached',
    }
  }
}

/**
 * Whether an Ollama at the model's address answers the extension's origin: Ollama refuses
 * origins OLLAMA_ORIGINS does not allow with a bare 403, which Node (sending none) never meets.
 */
export async function checkOllamaOrigins(
  llm: LlmSettings | string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<Check | undefined> {
  if (typeof llm !== 'object' || llm.provider !== 'local') return undefined
  const root = new URL(llm.baseUrl).origin
  const r = await fetch(`${root}/api/tags`, {
    headers: { origin: kProbeOrigin },
    signal: AbortSignal.timeout(10_000),
  }).catch(() => undefined)
  if (!r) return { name: 'Ollama origins', status: 'skip', found: `nothing answered at ${root} (see Model)` }
  if (r.status === 403)
    return {
      name: 'Ollama origins',
      status: 'fail',
      found: `Ollama at ${root} refuses the extension's origin (HTTP 403)`,
      fix: `quit Ollama and start it again with ${kOllamaOrigins} set (e.g. \`${kOllamaOrigins} ollama serve\`)`,
      docs: 'ollama-refuses-ava-http-403',
    }
  if (!r.ok)
    return {
      name: 'Ollama origins',
      status: 'skip',
      found: `${root} is not Ollama (GET /api/tags: HTTP ${r.status}); other local servers do not check origins`,
    }
  const here = env.OLLAMA_ORIGINS
  return {
    name: 'Ollama origins',
    status: 'ok',
    found: `Ollama at ${root} answers chrome-extension:// origins${here ? ` (OLLAMA_ORIGINS here: ${here})` : ''}`,
  }
}

/** The native host `ava mcp --chrome` needs, in each browser folder `ava mcp install` writes to. */
export function checkNativeHost(o: { home?: string; profile?: string } = {}): Check {
  const installed: string[] = []
  const broken: string[] = []
  for (const folder of hostFolders({ home: o.home ?? homedir(), profile: o.profile })) {
    const file = join(folder, `${kHostName}.json`)
    if (!existsSync(file)) continue
    try {
      const m = JSON.parse(readFileSync(file, 'utf8')) as { path?: string; allowed_origins?: string[] }
      const ids = (m.allowed_origins ?? []).map((x) => x.replace(/^chrome-extension:\/\/|\/$/g, '')).join(', ')
      const launcher = m.path && existsSync(m.path) ? readFileSync(m.path, 'utf8') : undefined
      // The launcher's command line: the Node and the host copy it runs (quoted, as installNativeHost writes them).
      const command =
        launcher
          ?.split('\n')
          .find((l) => l.includes(' exec '))
          ?.split(' exec ')[1] ?? ''
      const runs = [...command.matchAll(/'([^']+)'/g)].map((x) => x[1])
      const missing = !launcher ? [m.path ?? '(no path)'] : runs.filter((p) => !existsSync(p))
      if (missing.length) broken.push(`${file}: ${missing.join(', ')} missing`)
      else installed.push(`${dirname(dirname(file)).replace(o.home ?? homedir(), '~')} (extension ${ids})`)
    } catch {
      broken.push(`${file}: not JSON`)
    }
  }
  const fix = "run `ava mcp install --extension-id <id>` (chrome://extensions shows Ava's id with Developer mode on)"
  if (broken.length)
    return {
      name: 'Native host',
      status: 'warn',
      found: `broken: ${broken.join('; ')}`,
      fix,
      docs: 'the-extension-is-not-connected',
    }
  if (!installed.length)
    return {
      name: 'Native host',
      status: 'warn',
      found: 'not installed: `ava mcp --chrome` cannot reach Ava in your Chrome (only it needs the host)',
      fix,
      docs: 'the-extension-is-not-connected',
    }
  return { name: 'Native host', status: 'ok', found: `installed for ${installed.join('; ')}` }
}

export async function runChecks(o: {
  browser?: string
  env?: NodeJS.ProcessEnv
  home?: string
  profile?: string
}): Promise<Check[]> {
  const env = o.env ?? process.env
  const values = readEnvironment(env).values
  const llm = modelFromEnvironment(values)
  const root = packageRoot()
  const [chromium, model, origins] = await Promise.all([
    checkChromium(o.browser),
    checkModel(llm),
    checkOllamaOrigins(llm, env),
  ])
  return [
    checkNode(),
    chromium,
    checkExtension(values.AVA_DIST ?? (root && join(root, 'dist'))),
    model,
    ...(origins ? [origins] : []),
    checkNativeHost({ home: o.home, profile: o.profile }),
  ]
}

const kMark: Record<CheckStatus, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: '--  ' }

export function formatChecks(checks: Check[]): string[] {
  const width = Math.max(...checks.map((c) => c.name.length))
  return checks.flatMap((c) => {
    const lines = [`${kMark[c.status]}  ${c.name.padEnd(width)}  ${c.found}`]
    const pad = ' '.repeat(width + 8)
    if (c.fix && c.status !== 'ok') lines.push(`${pad}fix: ${c.fix}`)
    if (c.docs && (c.status === 'fail' || c.status === 'warn')) lines.push(`${pad}see: ${troubleshootingPage(c.docs)}`)
    return lines
  })
}

export async function doctorCli(parsed: Parsed, io: Io): Promise<number> {
  const checks = await runChecks({
    browser: parsed.values.browser as string | undefined,
    profile: parsed.values.profile ? resolve(parsed.values.profile as string) : undefined,
  })
  const failed = checks.filter((c) => c.status === 'fail')
  if (parsed.values.json) io.out(JSON.stringify({ ok: failed.length === 0, checks }, null, 2))
  else for (const line of formatChecks(checks)) io.out(line)
  io.err(
    failed.length
      ? `ava doctor: ${failed.length} of ${checks.length} checks failed: ${failed.map((c) => c.name).join(', ')}`
      : 'ava doctor: nothing to fix',
  )
  return failed.length ? kExit.failed : kExit.ok
}
