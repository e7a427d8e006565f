import type { PackIssue } from './errors'
import type { ActionEngine, ActionError, ActionResult } from './engine'
import { formatDescription } from './format'
import type { LoadResult } from './loader'
import { dryRun, type DryRunResult } from './plan'
import type { ActionDescription, ActionInfo, ActionRegistry, NamespaceInfo } from './registry'
import { validatePack } from './validator'

// The `action.*` commands as one typed map from name to request and response, so the
// background can expose them as messages (its wiring is another issue) and the panel and the
// planner can call them without string dispatch.

export interface ValidationResponse {
  ok: boolean
  path: string
  issues: PackIssue[]
}

export interface ActionApiMap {
  'action.list': { request: { namespace?: string }; response: NamespaceInfo[] }
  'action.describe': {
    request: { action: string; format?: 'text' | 'json' }
    response: { ok: true; action: ActionDescription; text?: string } | { ok: false; error: ActionError }
  }
  'action.run': { request: { action: string; params: Record<string, unknown> }; response: ActionResult }
  'action.dryRun': {
    request: { action: string; params: Record<string, unknown>; version?: string }
    response: DryRunResult
  }
  'action.debug': { request: { action: string; params: Record<string, unknown> }; response: ActionResult }
  /** The extension has no file system: the caller passes the text it read (file, URL, paste). */
  'action.validate': { request: { path: string; text: string }; response: ValidationResponse }
  'action.search': { request: { query: string }; response: ActionInfo[] }
  'action.reload': {
    request: Record<string, never>
    response: { success: boolean; actions: number; issues: PackIssue[] }
  }
}

export type ActionCommandType = keyof ActionApiMap
export type ActionRequest<K extends ActionCommandType> = ActionApiMap[K]['request']
export type ActionResponse<K extends ActionCommandType> = ActionApiMap[K]['response']

/** ActionCommand: `{ type: 'action.run', action, params }` and so on. */
export type ActionCommand = { [K in ActionCommandType]: { type: K } & ActionRequest<K> }[ActionCommandType]

export type ActionApi = {
  [K in ActionCommandType as K extends `action.${infer M}` ? M : never]: (
    request: ActionRequest<K>,
  ) => Promise<ActionResponse<K>>
} & {
  /** One entry point for a message router: dispatches on `type`. */
  handle<K extends ActionCommandType>(command: { type: K } & ActionRequest<K>): Promise<ActionResponse<K>>
}

export interface ActionApiDeps {
  registry: ActionRegistry
  /** The engine bound to the active tab's BrowserPort; absent when there is no page to act on. */
  getEngine?: () => ActionEngine | undefined | Promise<ActionEngine | undefined>
  /** The `env` scope used for dry runs. */
  env?: Record<string, string>
}

function noBrowser(action: string): ActionResult {
  return {
    success: false,
    action,
    error: {
      code: 'STEP_FAILED',
      message: 'No page is attached to run actions in.',
      action,
      suggestion: 'Open the page first.',
    },
    warnings: [],
    fallbacksUsed: [],
    durationMs: 0,
    trace: [],
  }
}

export function createActionApi(deps: ActionApiDeps): ActionApi {
  const { registry } = deps
  const engine = async (): Promise<ActionEngine | undefined> => deps.getEngine?.()
  const api = {
    list: async ({ namespace }: ActionRequest<'action.list'>) => registry.list(namespace),
    describe: async ({
      action,
      format,
    }: ActionRequest<'action.describe'>): Promise<ActionResponse<'action.describe'>> => {
      const description = registry.describe(action)
      if (!description) {
        const lookup = registry.lookup(action)
        const message = lookup.ok ? `No action "${action}".` : lookup.message
        return { ok: false, error: { code: 'ACTION_NOT_FOUND', message, action } }
      }
      return format === 'text'
        ? { ok: true, action: description, text: formatDescription(description) }
        : { ok: true, action: description }
    },
    run: async ({ action, params }: ActionRequest<'action.run'>) =>
      (await engine())?.run(action, params) ?? noBrowser(action),
    debug: async ({ action, params }: ActionRequest<'action.debug'>) =>
      (await engine())?.debug(action, params) ?? noBrowser(action),
    dryRun: async ({ action, params, version }: ActionRequest<'action.dryRun'>) =>
      dryRun(registry, action, params, { env: deps.env, version }),
    validate: async ({ path, text }: ActionRequest<'action.validate'>) => {
      const result = validatePack(text, { file: path })
      return { ok: result.ok, path, issues: result.issues }
    },
    search: async ({ query }: ActionRequest<'action.search'>) => registry.search(query),
    reload: async () => {
      const result: LoadResult = await registry.reload()
      return { success: true, actions: registry.size, issues: result.issues }
    },
  }
  const handlers = {
    'action.list': api.list,
    'action.describe': api.describe,
    'action.run': api.run,
    'action.debug': api.debug,
    'action.dryRun': api.dryRun,
    'action.validate': api.validate,
    'action.search': api.search,
    'action.reload': api.reload,
  } as { [K in ActionCommandType]: (request: ActionRequest<K>) => Promise<ActionResponse<K>> }
  return {
    ...api,
    handle: <K extends ActionCommandType>(command: { type: K } & ActionRequest<K>) => {
      const { type, ...request } = command
      const handler = handlers[type] as (request: ActionRequest<K>) => Promise<ActionResponse<K>>
      return handler(request as unknown as ActionRequest<K>)
    },
  }
}
