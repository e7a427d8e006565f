import { activeProfile, DEFAULT_SETTINGS, type ProviderKind, type Settings } from './settings'
import { isProviderEndpoint, kProviders } from './providers'

/**
 * What stands between a person and a first answer, as the panel shows it:
 * - `key`: OpenAI's or Anthropic's own endpoint with no API key; no request can succeed there. (Another
 *   OpenAI- or Anthropic-compatible server may need none: a self-hosted one, a stand-in.)
 * - `model`: no model has ever answered and the active profile is still the one Ava installs with
 *   (a local server that usually is not there), so nobody has chosen a model yet.
 * `null`: nothing known to be missing; a request goes out, and if the model cannot be reached the
 * error names the URL tried.
 */
export type SetupMissing = 'key' | 'model' | null

export interface SetupStatus {
  missing: SetupMissing
  /** A model has answered once (a run or Test connection), ever, on this browser. */
  answered: boolean
  provider: ProviderKind
  /** Where requests go: named in the panel, never the key. */
  endpoint: string
}

const kInstallProfile = DEFAULT_SETTINGS.profiles[0]

export function setupStatus(settings: Settings, answered: boolean): SetupStatus {
  const p = activeProfile(settings)
  const untouched =
    p.provider === kInstallProfile.provider &&
    p.baseUrl === kInstallProfile.baseUrl &&
    p.model === kInstallProfile.model
  const hosted = kProviders[p.provider].needsKey && isProviderEndpoint(p)
  const missing: SetupMissing = hosted && !p.apiKey.trim() ? 'key' : !answered && untouched ? 'model' : null
  return { missing, answered, provider: p.provider, endpoint: p.baseUrl }
}
