import browser from 'webextension-polyfill'
import { migrateAll } from '../storage/migrations'

/**
 * Runs the storage migrations on install and on every update (and on a Chrome update, which
 * costs one cheap pass). Reads also lift old shapes on their own, so a message that arrives
 * before this finishes still sees current data.
 */
export function watchMigrations(): void {
  browser.runtime.onInstalled.addListener((details) => {
    void migrateAll().then(
      (r) => console.info(`[ava] storage ready after ${details.reason}`, r),
      (e) => console.error('[ava] storage migration failed', e),
    )
  })
}
