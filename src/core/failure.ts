import type { Msg } from './chat'
import { kChannelFailures } from './failure-channel'

/** What the panel offers on a failed outcome: try again, ask the model again, or open Options. */
export const kRecoveries = ['retry', 'regenerate', 'options'] as const
export type Recovery = (typeof kRecoveries)[number]

/**
 * Every failure code Ava's layers send each other or show a person, described once (zod keeps one
 * issue-code list the same way). The page's executor, the flow replay, the pack engine, the
 * agent's run, the message channel, the background's refusals, `ava` and `ava mcp` all speak
 * these codes; a layer that emits only some names its subset with `Extract<FailureCode, …>`, and
 * nothing translates one code into another on the way up (docs/architecture.md, "Failure codes").
 *
 * A code's words for a person are locale keys (src/core/locales/en.ts and zh-CN.ts), never a
 * sentence here: the panel says them with vue-i18n, the CLI with src/core/locales/render.ts.
 * A `message` beside a code is English for a developer's log, a model's prompt or Details.
 */
export interface FailureSpec {
  /** What happened, for the reader of this list and of docs/architecture.md. */
  means: string
  /**
   * The person's sentence, as locale keys: `step` (with `{n}`, the step's number) when one step
   * ended so, `run` when a whole request ends on it, `plain` for a refusal said on its own
   * (the options page, an import, the channel), `test` for Test connection's line. Empty for a
   * code only a model reads (ava mcp's tool results). `reason` is the clause a pack run's line
   * ends with (the popup's "failed at step 2 (click): <reason>").
   */
  say: { step?: string; run?: string; plain?: string; test?: string; reason?: string }
  /** What a person can do about it, as a locale key (the CLI prints it as `hint:`). */
  hint?: string
  /** The buttons under the failure in the panel (default: Retry). */
  recovery?: readonly Recovery[]
  /**
   * Who reads the code when nobody reads a sentence: `model` (ava mcp's tool results, the model
   * is told the code and the English message) or `script` (ava --json). Such a code has no `say`.
   */
  reader?: 'model' | 'script'
  /** `ava`'s exit status class when a run ends on it (src/cli/args.ts kExit). */
  exit: 'failed' | 'usage' | 'internal'
  /** A refusal whose English message carries what is wrong in particular (a parser's words): shown behind Details. */
  details?: true
  /** Before a model has ever answered, this failure means its set-up is wrong: the panel points at the welcome page. */
  setup?: true
  /** The element was not singled out with certainty: the AI repair may find it (a flow's one-step repair, the agent's fallback). */
  repairable?: true
  /** Trying the same step again cannot change the answer (a refusal, the person's no, a tie): a flow does not retry it. */
  final?: true
  /**
   * The section of docs/troubleshooting.md about it (its heading's anchor), for the failures a
   * person meets first: every message of such a code points there (`failureDocs`).
   */
  docs?: TroubleshootingSection
}

/**
 * The sections of docs/troubleshooting.md a failure may point to, by their headings' anchors
 * (test/core/failure.test.ts checks that each is a heading there and that each is named).
 */
export const kTroubleshooting = [
  'no-model',
  'the-model-cannot-be-reached',
  'ollama-refuses-ava-http-403',
  'no-chromium',
  'the-extension-is-not-connected',
  'a-site-is-blocked',
  'a-step-needs-a-yes',
  'no-tab',
] as const
export type TroubleshootingSection = (typeof kTroubleshooting)[number]

const step = (code: string) => `outcome.step.${code}`
const run = (code: string) => `outcome.error.${code}`
const plain = (code: string) => `failure.${code}`
const hint = (code: string) => `failure.hint.${code}`
const reason = (code: string) => `action.reason.${code}`

export const kFailures = {
  // ----- the model and the run (the agent, src/core/agent; the background's llm.ts)
  NETWORK: {
    means: "The model's endpoint could not be reached.",
    say: { run: run('NETWORK'), test: 'options.testError.NETWORK' },
    recovery: ['retry', 'options'],
    exit: 'failed',
    setup: true,
    docs: 'the-model-cannot-be-reached',
  },
  TOKEN_INVALID: {
    means: 'The provider refused the API key.',
    say: { run: run('TOKEN_INVALID'), test: 'options.testError.TOKEN_INVALID' },
    recovery: ['options'],
    exit: 'failed',
    setup: true,
    docs: 'the-model-cannot-be-reached',
  },
  RATE_LIMITED: {
    means: 'The provider is limiting requests (HTTP 429).',
    say: { run: run('RATE_LIMITED'), test: 'options.testError.RATE_LIMITED' },
    exit: 'failed',
  },
  PROVIDER_ERROR: {
    means: 'The provider answered with an error, or no usable answer.',
    say: { run: run('PROVIDER_ERROR'), test: 'options.testError.PROVIDER_ERROR' },
    recovery: ['retry', 'options'],
    exit: 'failed',
    setup: true,
    docs: 'the-model-cannot-be-reached',
  },
  MODEL_TIMEOUT: {
    means: 'The model sent no first byte within the request timeout (not a step that waited: that is TIMEOUT).',
    say: { run: run('MODEL_TIMEOUT'), test: 'options.testError.MODEL_TIMEOUT' },
    exit: 'failed',
    setup: true,
    docs: 'the-model-cannot-be-reached',
  },
  JSON_PARSE: {
    means: "The model's answer is not the JSON Ava asked for.",
    say: { run: run('JSON_PARSE') },
    recovery: ['regenerate'],
    exit: 'failed',
  },
  SCHEMA: {
    means: 'The model sent a step outside the step vocabulary.',
    say: { run: run('SCHEMA') },
    recovery: ['regenerate'],
    exit: 'failed',
  },
  STREAM_CUT: {
    means: "The model's stream ended mid-answer.",
    say: { run: run('STREAM_CUT') },
    recovery: ['regenerate'],
    exit: 'failed',
  },
  NO_PAGE: {
    means: 'No page Ava may act on is attached (a chrome:// tab, a closed tab, no content script).',
    say: { run: run('NO_PAGE') },
    exit: 'failed',
  },
  UNKNOWN: {
    means: 'Anything not coded more precisely; its message says what, for a log.',
    say: { run: run('UNKNOWN'), plain: plain('UNKNOWN') },
    exit: 'internal',
  },

  // ----- one step in the page (src/dom/executor, src/dom/recorder), a flow's replay, a pack's engine
  ELEMENT_NOT_FOUND: {
    means:
      'Nothing on the page matches what the step looks for (an id never given, a selector that matches nothing, an option a list lacks).',
    say: { step: step('ELEMENT_NOT_FOUND'), run: run('ELEMENT_NOT_FOUND'), reason: reason('ELEMENT_NOT_FOUND') },
    hint: hint('ELEMENT_NOT_FOUND'),
    exit: 'failed',
    repairable: true,
  },
  ELEMENT_STALE: {
    means: 'The element was found once and has left the page since (a re-render, a navigation under the step).',
    say: { step: step('ELEMENT_STALE'), run: run('ELEMENT_NOT_FOUND'), reason: reason('ELEMENT_STALE') },
    hint: hint('ELEMENT_NOT_FOUND'),
    exit: 'failed',
    repairable: true,
  },
  AMBIGUOUS: {
    means: 'Several elements fit and none stands out: nothing was acted on.',
    say: { step: step('AMBIGUOUS'), run: run('STEP_FAILED'), reason: reason('AMBIGUOUS') },
    exit: 'failed',
    repairable: true,
    final: true,
  },
  NOT_SIMILAR: {
    means: "A flow's selector found an element unlike the recorded snapshot: nothing was acted on.",
    say: { step: step('NOT_SIMILAR'), run: run('STEP_FAILED') },
    hint: hint('NOT_SIMILAR'),
    exit: 'failed',
    repairable: true,
  },
  NOT_ACTIONABLE: {
    means: 'The element cannot be used (hidden, disabled, covered, swapped under the pointer…); the reason says which.',
    say: { step: step('NOT_ACTIONABLE'), run: run('STEP_FAILED'), reason: reason('NOT_ACTIONABLE') },
    exit: 'failed',
  },
  TIMEOUT: {
    means: 'What a step waited for (an element, a state, the page going quiet, a pack action) did not happen in time.',
    say: { step: step('TIMEOUT'), run: run('STEP_FAILED'), reason: reason('TIMEOUT') },
    hint: hint('TIMEOUT'),
    exit: 'failed',
  },
  VERIFY_FAILED: {
    means:
      "A check did not hold once the page settled: a pack's verify, a flow's assert step, a done step that says it failed.",
    say: { step: step('VERIFY_FAILED'), run: run('STEP_FAILED'), reason: reason('VERIFY_FAILED') },
    hint: hint('VERIFY_FAILED'),
    exit: 'failed',
  },
  UNVERIFIED: {
    means:
      'The model said the request was done, but nothing on the page shows it: no verify step passed after the last action, the words its answer quotes are not on the page, or it said so before it could see what its steps did (docs/run-record.md, "The verdict").',
    say: { run: run('UNVERIFIED') },
    hint: hint('UNVERIFIED'),
    exit: 'failed',
  },
  INVALID: {
    means:
      'The step cannot be done as written (a value the control cannot take, a file not attached, an unknown action).',
    say: { step: step('INVALID'), run: run('STEP_FAILED'), reason: reason('INVALID') },
    exit: 'failed',
  },
  NEEDS_CONFIRMATION: {
    means: "A risky step waits for the person's yes; nothing was done.",
    say: { step: step('NEEDS_CONFIRMATION'), run: run('STEP_FAILED'), reason: reason('NEEDS_CONFIRMATION') },
    hint: hint('NEEDS_CONFIRMATION'),
    exit: 'failed',
    final: true,
    docs: 'a-step-needs-a-yes',
  },
  BLOCKED: {
    means: 'The step would reach a site the allow/deny lists forbid, or put a secret in an address; nothing was done.',
    say: { step: step('BLOCKED'), run: run('STEP_FAILED'), reason: reason('BLOCKED') },
    recovery: ['options'],
    exit: 'failed',
    final: true,
    docs: 'a-site-is-blocked',
  },
  STEP_FAILED: {
    means:
      'A step failed for a reason not coded more precisely (a navigation that did not load, a pack step that threw); its message says what.',
    say: { step: step('STEP_FAILED'), run: run('STEP_FAILED'), reason: reason('STEP_FAILED') },
    hint: hint('STEP_FAILED'),
    exit: 'failed',
  },
  VARIABLE_MISSING: {
    means: "A flow's variable has no value (no --param, no environment variable, no saved secret).",
    say: { step: step('VARIABLE_MISSING'), run: step('VARIABLE_MISSING') },
    exit: 'failed',
  },
  // The guard's three refusals (src/core/gate/guard.ts `refusalOf`), the same at every door.
  DENIED: {
    means: 'The person was asked about a step and said no; nothing was done to it.',
    say: { step: step('DENIED'), run: run('DENIED'), reason: reason('DENIED') },
    exit: 'failed',
    final: true,
    docs: 'a-step-needs-a-yes',
  },
  UNATTENDED: {
    means:
      "A step needed a person's yes, nobody was there to ask and nothing allowed it; its message names the --allow, --yes or setting that would. Nothing was done to it.",
    say: { step: step('UNATTENDED'), run: run('UNATTENDED'), reason: reason('UNATTENDED') },
    hint: hint('UNATTENDED'),
    exit: 'failed',
    final: true,
    docs: 'a-step-needs-a-yes',
  },
  CANCELLED: {
    means: 'The person (or Stop, or an AbortSignal) ended the work; nothing more was done.',
    say: { step: step('CANCELLED'), run: run('UNKNOWN'), reason: reason('CANCELLED') },
    exit: 'failed',
    final: true,
  },

  // ----- pack actions (src/core/registry)
  ACTION_NOT_FOUND: {
    means: 'No loaded pack has an action by that name.',
    say: { step: step('ACTION_NOT_FOUND'), run: run('STEP_FAILED'), reason: reason('ACTION_NOT_FOUND') },
    hint: hint('ACTION_NOT_FOUND'),
    exit: 'failed',
  },
  PARAM_REQUIRED: {
    means: 'A required parameter of the action was not given.',
    say: { step: step('PARAM_REQUIRED'), run: run('STEP_FAILED'), reason: reason('PARAM_REQUIRED') },
    hint: hint('PARAM_REQUIRED'),
    exit: 'failed',
  },
  PARAM_INVALID: {
    means: 'A parameter has the wrong type or a value outside its enum or pattern.',
    say: { step: step('PARAM_INVALID'), run: run('STEP_FAILED'), reason: reason('PARAM_INVALID') },
    hint: hint('PARAM_INVALID'),
    exit: 'failed',
  },
  VERSION_INCOMPATIBLE: {
    means: "The page's library version is outside the pack's compatibility range.",
    say: { step: step('VERSION_INCOMPATIBLE'), run: run('STEP_FAILED'), reason: reason('VERSION_INCOMPATIBLE') },
    hint: hint('VERSION_INCOMPATIBLE'),
    exit: 'failed',
  },
  MAX_DEPTH_EXCEEDED: {
    means: 'Actions called each other too deeply (or in a circle).',
    say: { step: step('MAX_DEPTH_EXCEEDED'), run: run('STEP_FAILED'), reason: reason('MAX_DEPTH_EXCEEDED') },
    hint: hint('MAX_DEPTH_EXCEEDED'),
    exit: 'failed',
  },
  NOT_FOR_SITE: {
    means: "The action's pack is not made for this site, and it was asked for unasked-for (the popup's Run).",
    say: { step: step('NOT_FOR_SITE'), run: run('STEP_FAILED'), reason: reason('NOT_FOR_SITE') },
    hint: hint('NOT_FOR_SITE'),
    exit: 'failed',
    final: true,
  },

  // ----- the message channel (src/messaging/transport.ts): in their own file, which every page's boot script reads
  ...kChannelFailures,
  FORBIDDEN: {
    means: 'A message came from a sender its handler does not accept, or one not authorised.',
    say: { plain: plain('FORBIDDEN') },
    exit: 'failed',
  },

  // ----- the background's refusals to the popup, options and panel (src/background/handlers)
  PACK_MISSING: { means: 'No pack has that namespace.', say: { plain: plain('PACK_MISSING') }, exit: 'failed' },
  REVIEW_DECLINED: {
    means: 'A flow was not replayed: the person did not approve the steps a page could have asked for.',
    say: { plain: plain('REVIEW_DECLINED') },
    exit: 'failed',
    final: true,
  },
  PACK_URL_INVALID: {
    means: 'An import address is not a URL.',
    say: { plain: plain('PACK_URL_INVALID') },
    exit: 'failed',
  },
  PACK_URL_PROTOCOL: {
    means: 'An import address is not http(s).',
    say: { plain: plain('PACK_URL_PROTOCOL') },
    exit: 'failed',
  },
  PACK_FETCH_FAILED: {
    means: 'An import address could not be fetched.',
    say: { plain: plain('PACK_FETCH_FAILED') },
    exit: 'failed',
  },
  PACK_HTTP: {
    means: 'An import address answered with an HTTP error.',
    say: { plain: plain('PACK_HTTP') },
    exit: 'failed',
  },
  PACK_CHANGED: {
    means: 'A pack changed while the person was deciding on its import.',
    say: { plain: plain('PACK_CHANGED') },
    exit: 'failed',
  },
  PACK_BUILTIN_ALWAYS_ON: {
    means: 'A built-in pack cannot be turned off.',
    say: { plain: plain('PACK_BUILTIN_ALWAYS_ON') },
    exit: 'failed',
  },
  PACK_BUILTIN_UNDELETABLE: {
    means: 'A built-in pack cannot be deleted.',
    say: { plain: plain('PACK_BUILTIN_UNDELETABLE') },
    exit: 'failed',
  },
  CACHE_MISSING: { means: 'A cache entry is gone.', say: { plain: plain('CACHE_MISSING') }, exit: 'failed' },
  CACHE_NOT_JSON: {
    means: 'An edited cache entry is not JSON.',
    say: { plain: plain('CACHE_NOT_JSON') },
    exit: 'failed',
  },
  CACHE_NOT_JSON_AT: {
    means: 'An edited cache entry is not JSON, at a known line and column.',
    say: { plain: plain('CACHE_NOT_JSON_AT') },
    exit: 'failed',
  },
  CACHE_INVALID: {
    means: 'An edited cache entry is JSON of the wrong shape.',
    say: { plain: plain('CACHE_INVALID') },
    exit: 'failed',
  },
  CACHE_KEY_CHANGED: {
    means: 'An edited cache entry changed its key.',
    say: { plain: plain('CACHE_KEY_CHANGED') },
    exit: 'failed',
  },
  TAB_NOT_WEB: {
    means: 'The tab asked for is closed or not a web page.',
    say: { plain: plain('TAB_NOT_WEB') },
    exit: 'failed',
  },
  SETTINGS_INVALID: {
    means: 'Settings did not pass their schema; `fields` names which.',
    say: { plain: plain('SETTINGS_INVALID') },
    exit: 'failed',
  },
  PROFILE_MISSING: {
    means: 'A provider profile no longer exists.',
    say: { plain: plain('PROFILE_MISSING') },
    exit: 'failed',
  },
  SETTINGS_NOT_JSON: {
    means: 'A settings file is not JSON.',
    say: { plain: plain('SETTINGS_NOT_JSON') },
    exit: 'failed',
  },
  SETTINGS_NOT_JSON_AT: {
    means: 'A settings file is not JSON, at a known line and column.',
    say: { plain: plain('SETTINGS_NOT_JSON_AT') },
    exit: 'failed',
  },
  SETTINGS_FILE_REJECTED: {
    means: 'A settings file did not pass the schema.',
    say: { plain: plain('SETTINGS_FILE_REJECTED') },
    exit: 'failed',
  },
  VAULT_NAME_INVALID: {
    means: "A secret's name is not a valid name.",
    say: { plain: plain('VAULT_NAME_INVALID') },
    exit: 'failed',
  },
  VAULT_VALUE_TOO_LONG: {
    means: "A secret's value is too long.",
    say: { plain: plain('VAULT_VALUE_TOO_LONG') },
    exit: 'failed',
  },
  VAULT_MISSING: { means: 'No secret has that name.', say: { plain: plain('VAULT_MISSING') }, exit: 'failed' },
  VAULT_SITE_INVALID: {
    means: "A secret's site is not a web site.",
    say: { plain: plain('VAULT_SITE_INVALID') },
    exit: 'failed',
  },
  EXTRACT_SCHEMA: {
    means: 'A schema to extract rows to is not one row of strings, numbers, integers or booleans (docs/extraction.md).',
    say: { plain: plain('EXTRACT_SCHEMA') },
    exit: 'usage',
    details: true,
  },
  FLOW_JSON: { means: 'A flow file is not JSON.', say: { plain: plain('FLOW_JSON') }, exit: 'failed', details: true },
  FLOW_INVALID: {
    means: 'A flow does not pass its schema; `issues` lists where.',
    say: { plain: plain('FLOW_INVALID') },
    exit: 'failed',
    details: true,
  },
  VARIABLE_SOURCE: {
    means: "A flow variable's source is malformed (`${file:}` without a path, `${arg:x}`).",
    say: { plain: plain('VARIABLE_SOURCE') },
    exit: 'failed',
    details: true,
  },
  NAMESPACE_INVALID: {
    means: 'A namespace to save a flow into is not a valid pack namespace.',
    say: { plain: plain('NAMESPACE_INVALID') },
    exit: 'failed',
  },
  PACK_TEXT: {
    means: 'The pack a flow is saved into could not be read.',
    say: { plain: plain('PACK_TEXT') },
    exit: 'failed',
    details: true,
  },
  PACK_INVALID: {
    means: 'A flow did not make a valid pack action.',
    say: { plain: plain('PACK_INVALID') },
    exit: 'failed',
    details: true,
  },
  PACK_TOO_LARGE: {
    means: 'A pack to import is larger than Ava reads.',
    say: { plain: 'error.PACK_TOO_LARGE' },
    exit: 'failed',
  },
  QUOTA_EXCEEDED: {
    means: "The extension's storage is full: what was to be saved was not.",
    say: { plain: plain('QUOTA_EXCEEDED') },
    exit: 'failed',
  },
  BUSY: { means: 'Ava is already working on a request in this tab.', say: { plain: 'outcome.busy' }, exit: 'failed' },
  FLOW_MISSING: {
    means: 'No saved (or recorded) flow has that id.',
    say: { plain: plain('FLOW_MISSING') },
    exit: 'failed',
  },
  SCHEDULE_TIME: {
    means: "A schedule's time, date, minute, repeat or time zone cannot be read, or a once-only time has passed.",
    say: { plain: plain('SCHEDULE_TIME') },
    details: true,
    exit: 'usage',
  },
  SCHEDULE_TARGET: {
    means: 'What a schedule would run is not there: no pack action or saved flow by that name, or no web address.',
    say: { plain: plain('SCHEDULE_TARGET') },
    details: true,
    exit: 'usage',
  },
  SITE_NOTE_INVALID: {
    means: 'A site note is empty, or its site is no web address.',
    say: { plain: plain('SITE_NOTE_INVALID') },
    details: true,
    exit: 'usage',
  },

  // ----- `ava` for a script (--json) and `ava mcp` for a model: codes nobody reads as a sentence
  FAILED: {
    means: 'An `ava` command ended in failure; the first line it wrote to stderr says why.',
    say: {},
    reader: 'script',
    exit: 'failed',
  },
  USAGE_ERROR: {
    means: 'The `ava` command line is wrong (an unknown option, a missing argument).',
    say: {},
    reader: 'script',
    exit: 'usage',
  },
  INTERNAL_ERROR: { means: 'A bug in `ava` itself.', say: {}, reader: 'script', exit: 'internal' },
  PAGE_NOT_OPENED: {
    means: 'The page a run starts on did not open (connection refused, a name that does not resolve).',
    say: {},
    reader: 'script',
    exit: 'failed',
  },
  NO_MATCH: { means: 'An action search found nothing for the words asked.', say: {}, reader: 'model', exit: 'failed' },
  NO_TAB: {
    means: 'No tab is given to this MCP client (the person has not allowed one, or revoked it).',
    say: {},
    reader: 'model',
    exit: 'failed',
    docs: 'no-tab',
  },
  NOT_GRANTED: {
    means:
      'The client\'s tab is on a site the person has not given this MCP client: nothing there was read or done (docs/mcp.md, "What a grant covers").',
    say: {},
    reader: 'model',
    exit: 'failed',
    final: true,
  },
  NO_MODEL: {
    means: 'ava_ask needs a model and ava mcp was started without one.',
    say: {},
    reader: 'model',
    exit: 'failed',
    docs: 'no-model',
  },
  NO_BROWSER: {
    means: "Ava's extension has not connected to ava mcp.",
    say: {},
    reader: 'model',
    exit: 'failed',
    docs: 'the-extension-is-not-connected',
  },
  BROWSER_GONE: {
    means: 'The browser went away while a call waited for it.',
    say: {},
    reader: 'model',
    exit: 'failed',
  },
  STEP_LIMIT: {
    means: 'A call reached its step limit; nothing after the limit was done.',
    say: {},
    reader: 'model',
    exit: 'failed',
    final: true,
  },
  NO_SECRET: {
    means: 'A step names a saved secret that ava mcp was not given.',
    say: {},
    reader: 'model',
    exit: 'failed',
  },
  TOO_LARGE: {
    means: "An answer was larger than Chrome passes to an extension's native host (1 MB).",
    say: {},
    reader: 'model',
    exit: 'failed',
  },
  SECRET_UNBOUND: {
    means: 'A saved secret is not kept for the site the step would send it to; nothing was sent.',
    say: {},
    reader: 'model',
    exit: 'failed',
    final: true,
  },
} as const satisfies Record<string, FailureSpec>

export type FailureCode = keyof typeof kFailures
export const kFailureCodes = Object.keys(kFailures) as FailureCode[]

export function isFailureCode(code: unknown): code is FailureCode {
  return typeof code === 'string' && Object.hasOwn(kFailures, code)
}

/** The spec of a code from another layer or from storage; anything unknown reads as UNKNOWN. */
export function failureOf(code: unknown): FailureSpec {
  return kFailures[isFailureCode(code) ? code : 'UNKNOWN']
}

/** Trying the same step again cannot change the answer. */
export function isFinal(code: unknown): boolean {
  return failureOf(code).final === true
}

/** The failures a repair may address: the element was not singled out with certainty. */
export function isRepairable(code: unknown): boolean {
  return failureOf(code).repairable === true
}

/**
 * What a person reads about a failure: step `n`'s sentence when a step number is given and the
 * code has one, else the run's, else the plain refusal's.
 */
export function failureMsg(code: unknown, where: { n?: number | string; params?: Msg['params'] } = {}): Msg {
  const say: FailureSpec['say'] = failureOf(code).say
  const params = { ...(where.params ?? {}) }
  if (where.n !== undefined && say.step) return { key: say.step, params: { ...params, n: where.n } }
  const key = say.run ?? say.plain ?? say.step ?? kFailures.UNKNOWN.say.run
  return Object.keys(params).length ? { key, params } : { key }
}

/** Where docs/troubleshooting.md says more about a failure, as a locale key's Msg, for the codes a person meets first. */
export function failureDocs(code: unknown): Msg | undefined {
  const section = failureOf(code).docs
  return section ? { key: 'failure.docs', params: { page: troubleshootingPage(section) } } : undefined
}

/** A section of the troubleshooting page, as a path inside the package (README.md and docs/ ship in it). */
export const troubleshootingPage = (section: TroubleshootingSection): string => `docs/troubleshooting.md#${section}`

/** What to do about a failure, as a locale key's Msg, when the list has one. */
export function failureHint(code: unknown): Msg | undefined {
  const key = failureOf(code).hint
  return key ? { key } : undefined
}

/** Every locale key the list names (or those of some kinds); both tables must have each (test/core/failure.test.ts). */
export function failureKeys(kinds?: readonly (keyof FailureSpec['say'] | 'hint' | 'docs')[]): string[] {
  const keys = new Set<string>()
  const wanted = (kind: string) => !kinds || (kinds as readonly string[]).includes(kind)
  for (const spec of Object.values(kFailures) as FailureSpec[]) {
    for (const [kind, key] of Object.entries(spec.say)) if (key && wanted(kind)) keys.add(key)
    if (spec.hint && wanted('hint')) keys.add(spec.hint)
    if (spec.docs && wanted('docs')) keys.add('failure.docs')
  }
  return [...keys]
}

/**
 * Codes earlier versions wrote where they are kept (a conversation's messages in the extension's storage
 * hold locale keys named by code): read once through here, in the schema's preprocess.
 */
export const kLegacyKeys: Readonly<Record<string, string>> = {
  // (a message's `hint` names its code; one from before messages carried their sentence is read through kLegacyCodes)
  'outcome.error.ELEMENT_MISSING': 'outcome.error.ELEMENT_NOT_FOUND',
  'outcome.error.TIMEOUT': 'outcome.error.MODEL_TIMEOUT',
}

/**
 * Codes a chat message written before messages carried their sentence (`msg`) names in its `hint`:
 * the panel says such a message by the code it has now.
 */
export const kLegacyCodes: Readonly<Record<string, FailureCode>> = {
  ELEMENT_MISSING: 'ELEMENT_NOT_FOUND',
  TIMEOUT: 'MODEL_TIMEOUT',
}
