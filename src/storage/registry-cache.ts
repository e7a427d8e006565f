import { CachedRegistrySchema, type CachedRegistry } from '../core/registry'
import { typedKey } from './area'

/**
 * The validated action registry of the last load, keyed by its packs' hash (core/registry/cache.ts),
 * so a service worker that Chrome stopped and started again restores it instead of re-parsing.
 *
 * In `session`, not `local`: session storage is emptied when the extension is updated or reloaded,
 * which is exactly when the loader's code (and so the meaning of the stored form) can change, so a
 * cache never outlives the code that wrote it; it also survives every worker restart in between,
 * which is what it is for, and content scripts cannot read or write it by default. A browser
 * restart costs one parse.
 */
export const DEFAULT_REGISTRY_CACHE = (): CachedRegistry | null => null
export const registryCacheStore = typedKey<CachedRegistry | null>(
  'session',
  'registry.cache',
  CachedRegistrySchema.nullable(),
  DEFAULT_REGISTRY_CACHE,
)
