import { parse } from 'yaml'
import { handle, type PackSummary } from '../../messaging'

// Built-in packs are bundled at build time: MV3 cannot load code or data from elsewhere at run time.
const builtin = import.meta.glob('/actions/*.yaml', { query: '?raw', import: 'default', eager: true }) as Record<string, string>

function summarise(path: string, text: string): PackSummary {
  try {
    const doc = parse(text) as { namespace?: string; version?: string; description?: string; actions?: Record<string, unknown> }
    return {
      namespace: String(doc.namespace ?? path),
      version: String(doc.version ?? '?'),
      description: String(doc.description ?? ''),
      actions: Object.keys(doc.actions ?? {}).length,
      source: 'builtin',
    }
  } catch (e) {
    return { namespace: path.split('/').pop() ?? path, version: '?', description: `Invalid: ${(e as Error).message}`, actions: 0, source: 'builtin' }
  }
}

export function registerPackHandlers(): void {
  handle('popup→bg:packs.list', ['popup', 'options'], async () => ({
    packs: Object.entries(builtin).map(([path, text]) => summarise(path, text)),
  }))
}
