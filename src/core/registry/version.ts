import semver from 'semver'
import type { ActionCompatibility, SelectorDefinition } from './model'
import type { BrowserPort } from './port'
import { parseSelector } from '../page/selectors'

// which version of a component library the page runs, and what that changes.

/** Pre-releases (2.5.0-beta.1) count as their version; libraries ship those to real sites. */
const kSemverOptions: semver.RangeOptions & semver.CoerceOptions = { includePrerelease: true }

/** "v2.4", "2.4.1-beta", "Element Plus 2.3.9" → a clean semver string, or null. */
export function normalizeVersion(raw: unknown): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null
  const text = String(raw).trim()
  const exact = semver.valid(semver.clean(text) ?? '', kSemverOptions)
  if (exact) return exact
  return semver.coerce(text, kSemverOptions)?.version ?? null
}

/** Patterns: `4.x`, `>=4.2.0`, `~4.2.0`, `^4.2.0`, ranges like `>=2.0.0 <2.5.0`. */
export function matchVersion(version: string, pattern: string): boolean {
  const v = normalizeVersion(version)
  if (v === null || semver.validRange(pattern, kSemverOptions) === null) return false
  return semver.satisfies(v, pattern, kSemverOptions)
}

export type CompatibilityCheck = { ok: true } | { ok: false; message: string }

/** min_version / max_version, both inclusive. Unknown versions pass: we cannot tell. */
export function checkCompatibility(
  compat: ActionCompatibility | undefined,
  version: string | null,
): CompatibilityCheck {
  if (!compat || version === null) return { ok: true }
  if (compat.minVersion && semver.lt(version, compat.minVersion, kSemverOptions)) {
    return { ok: false, message: `The page runs version ${version}; this pack needs at least ${compat.minVersion}.` }
  }
  if (compat.maxVersion && semver.gt(version, compat.maxVersion, kSemverOptions)) {
    return { ok: false, message: `The page runs version ${version}; this pack supports at most ${compat.maxVersion}.` }
  }
  return { ok: true }
}

/**
 * every override whose pattern matches, in declaration order, replaces selector aliases;
 * later matches win. Returns the new alias map and the patterns that applied.
 */
export function applyOverrides(
  selectors: Record<string, SelectorDefinition>,
  compat: ActionCompatibility | undefined,
  version: string | null,
): { selectors: Record<string, SelectorDefinition>; applied: string[] } {
  if (!compat || version === null) return { selectors, applied: [] }
  const out = { ...selectors }
  const applied: string[] = []
  for (const { pattern, override } of compat.versionOverrides) {
    if (!matchVersion(version, pattern)) continue
    Object.assign(out, override.selectors)
    applied.push(pattern)
  }
  return { selectors: out, applied }
}

export type DetectionMethod = 'selector' | 'global' | 'meta'

export interface DetectedVersion {
  version: string | null
  method?: DetectionMethod
  raw?: string
}

type VersionPort = Pick<BrowserPort, 'query' | 'getText' | 'getAttribute' | 'readGlobal'>

/**
 * tries version_selector, then version_global (a property path read by the port's fixed
 * reader, never a script), then version_meta. The first one that yields a version wins; any
 * that fails is skipped, since a missing marker just means "unknown".
 */
export async function detectVersion(
  compat: ActionCompatibility | undefined,
  port: VersionPort,
  signal: AbortSignal,
): Promise<DetectedVersion> {
  if (!compat) return { version: null }
  const { detect } = compat
  const attempts: Array<[DetectionMethod, () => Promise<unknown>]> = []
  if (detect.selector) {
    const selector = parseSelector(detect.selector)
    const attribute = detect.attribute
    attempts.push([
      'selector',
      async () => {
        if ((await port.query(selector, signal)) === 0) return null
        return attribute ? port.getAttribute(selector, attribute, signal) : port.getText(selector, signal)
      },
    ])
  }
  if (detect.global && port.readGlobal) {
    const read = port.readGlobal.bind(port)
    const path = detect.global.split('.')
    attempts.push(['global', () => read(path, signal)])
  }
  if (detect.meta) {
    const meta = parseSelector(`css:meta[name="${detect.meta.replace(/["\\]/g, '\\$&')}"]`)
    attempts.push([
      'meta',
      async () => ((await port.query(meta, signal)) === 0 ? null : port.getAttribute(meta, 'content', signal)),
    ])
  }
  for (const [method, read] of attempts) {
    try {
      const raw = await read()
      const version = normalizeVersion(raw)
      if (version) return { version, method, raw: String(raw) }
    } catch {
      if (signal.aborted) throw signal.reason
    }
  }
  return { version: null }
}
