import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { kInputs, kOutputs, rebuildReason } from '../../scripts/prepack.mjs'

// `npm pack` reuses the build `npm run build` left unless a source changed after it (README, "The
// `ava` command line…"): decided on modification times, here set by hand on a tree of empty files.

let root: string
const at = (file: string, seconds: number) => {
  const path = join(root, file)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, '')
  utimesSync(path, seconds, seconds)
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ava-prepack-'))
  for (const f of ['src/core/flows/schema.ts', 'actions/common.yaml', 'scripts/build-lib.mjs', 'package.json'])
    at(f, 1_000)
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('prepack', () => {
  it('builds when nothing was built, naming what is missing', () => {
    expect(rebuildReason(root, {})).toBe(`${kOutputs.join(', ')} not built yet`)
    at('dist/manifest.json', 2_000)
    expect(rebuildReason(root, {})).toMatch(/^bin\/ava\.js, lib\/playwright\.cjs, .* not built yet$/)
  })

  it('reuses a build newer than every source', () => {
    for (const f of kOutputs) at(f, 2_000)
    expect(rebuildReason(root, {})).toBeNull()
  })

  it('builds again when a source changed after the oldest output, naming both', () => {
    for (const f of kOutputs) at(f, 2_000)
    at('lib/mcp.cjs', 1_500)
    at('src/cli/run.ts', 1_800)
    expect(rebuildReason(root, {})).toBe('src/cli/run.ts changed after lib/mcp.cjs was built')
    at('lib/mcp.cjs', 2_000)
    expect(rebuildReason(root, {})).toBeNull()
    at('public/_locales/en/messages.json', 3_000)
    expect(rebuildReason(root, {})).toMatch(/^public\/_locales\/en\/messages\.json changed after/)
  })

  it('builds when asked to, fresh or not', () => {
    for (const f of kOutputs) at(f, 2_000)
    expect(rebuildReason(root, { AVA_PACK_REBUILD: '1' })).toBe('AVA_PACK_REBUILD is set')
  })

  it('watches what the build reads', () => {
    expect(kInputs).toEqual(
      expect.arrayContaining([
        'src',
        'actions',
        'public',
        'scripts',
        'vite.config.ts',
        'manifest.config.ts',
        'package.json',
        'package-lock.json',
      ]),
    )
  })
})
