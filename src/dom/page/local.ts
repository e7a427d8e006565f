/**
 * The page channel with both ends in one page: the registry's BrowserPort for an engine that
 * itself runs in the page (the executor's e2e tests and bench). Commands go straight to the
 * receiver; nothing else differs from a port whose commands cross from the background.
 */
import type { BrowserPort } from '../../core/registry/port'
import type { SelectorCache } from '../../core/registry/selectors'
import { createChannelPort } from '../../core/page/channel'
import type { PageCommand, PageCommandKind, PageOutcome } from '../../core/page/command'
import { createReceiver } from './receiver'

export interface LocalPortOptions {
  /** Cleared when the URL changes between calls: another page may need other selectors. */
  cache?: Pick<SelectorCache, 'clear'>
}

export function createPagePort(options: LocalPortOptions = {}): BrowserPort {
  const receive = createReceiver()
  let lastUrl = location.href
  const seeNavigation = () => {
    if (location.href === lastUrl) return
    lastUrl = location.href
    options.cache?.clear()
  }
  return createChannelPort(
    async <K extends PageCommandKind>(command: PageCommand<K>): Promise<PageOutcome<K>> => {
      seeNavigation()
      const out = await receive(command)
      seeNavigation()
      return out
    },
    {
      async navigate(url) {
        const target = new URL(url, location.href)
        if (target.protocol !== 'http:' && target.protocol !== 'https:')
          throw new Error(`Ava only opens http(s) pages, not ${target.protocol}`)
        options.cache?.clear()
        location.assign(target.href)
        lastUrl = target.href
      },
      async readGlobal(path) {
        let value: unknown = globalThis
        for (const key of path) {
          if (value === null || value === undefined || (typeof value !== 'object' && typeof value !== 'function'))
            return undefined
          value = (value as Record<string, unknown>)[key]
        }
        // Version markers are plain data; only primitives are returned, never page objects.
        return typeof value === 'object' || typeof value === 'function' ? undefined : value
      },
    },
  )
}
