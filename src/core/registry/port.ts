import type { FailureCode } from '../failure'
import type { ParsedSelector } from '../page/selectors'
import type { UploadFile } from '../page/command'

/** A file for an upload step: its bytes (a pack's own, a picked file), or a path the carrier reads. */
export type UploadSource = UploadFile | { path: string }

// The engine's only view of a browser. The page side implements it in
// the executor issue; tests implement it with a recording fake. Every call takes the step's
// AbortSignal, which fires on step timeout, action timeout or cancellation.

export type MouseButton = 'left' | 'right' | 'middle'
export type ElementState = 'visible' | 'hidden' | 'attached' | 'detached'
export type ScrollDirection = 'up' | 'down' | 'left' | 'right'

export type WaitCondition =
  | { kind: 'selector'; selector: ParsedSelector; state: ElementState }
  | { kind: 'text'; text: string }
  | { kind: 'url'; pattern: string }

export interface BrowserPort {
  /** How many elements match right now; must not wait. Drives primary→fallback resolution. */
  query(selector: ParsedSelector, signal: AbortSignal): Promise<number>
  click(target: ParsedSelector, options: { button: MouseButton; count: number }, signal: AbortSignal): Promise<void>
  /** Replaces the value of an input, textarea or contenteditable. */
  fill(target: ParsedSelector, value: string, signal: AbortSignal): Promise<void>
  /** Types key by key into `target`, or into the focused element when it is null. */
  type(target: ParsedSelector | null, text: string, options: { delayMs: number }, signal: AbortSignal): Promise<void>
  /** A key or chord such as `Enter` or `Control+A`, on `target` or the focused element. */
  press(key: string, target: ParsedSelector | null, signal: AbortSignal): Promise<void>
  hover(target: ParsedSelector, signal: AbortSignal): Promise<void>
  /** Chooses options of a native `<select>` by value or label. */
  select(target: ParsedSelector, values: string[], signal: AbortSignal): Promise<void>
  check(target: ParsedSelector, checked: boolean, signal: AbortSignal): Promise<void>
  scroll(
    target: ParsedSelector | null,
    options: { direction: ScrollDirection; amount: number },
    signal: AbortSignal,
  ): Promise<void>
  /** Resolves when the condition holds; rejects (TIMEOUT) after `timeoutMs`. */
  waitFor(condition: WaitCondition, timeoutMs: number, signal: AbortSignal): Promise<void>
  snapshot(signal: AbortSignal): Promise<unknown>
  /** Semantic lookup ("the 新建 button"); returns whatever handle the page side uses, or null. */
  find(query: string, signal: AbortSignal): Promise<unknown>
  navigate(url: string, signal: AbortSignal): Promise<void>
  getText(target: ParsedSelector, signal: AbortSignal): Promise<string>
  getAttribute(target: ParsedSelector, name: string, signal: AbortSignal): Promise<string | null>
  getUrl(signal: AbortSignal): Promise<string>
  /**
   * Resolves once the tab's document has reached `domcontentloaded` (the wait
   * fallback). Optional: without it the engine asks for the URL, which the page side answers only from
   * a loaded document.
   */
  waitForLoad?(state: 'domcontentloaded', timeoutMs: number, signal: AbortSignal): Promise<void>
  /**
   * Puts files into the file input behind `target`. A file given by `path`
   * is read by the carrier (`ava run` reads the disk; the extension cannot). Optional: a port
   * without it fails the step.
   */
  upload?(target: ParsedSelector, files: UploadSource[], signal: AbortSignal): Promise<void>
  /**
   * Reads a property path of the page's global object (`['ElementPlus', 'version']`) with a fixed
   * function: no code string is ever built. Optional: without it, that
   * detection method is skipped.
   */
  readGlobal?(path: string[], signal: AbortSignal): Promise<unknown>
  /**
   * Runs an `eval` step's script. MV3 forbids eval in the extension, so the real port routes this
   * through the user-scripts API, and leaves it undefined when the person has not allowed that.
   */
  runUserScript?(script: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>
}

/** What a port throws when it knows why it failed; any other error counts as STEP_FAILED. */
export class PortError extends Error {
  readonly code: FailureCode
  constructor(code: FailureCode, message: string) {
    super(message)
    this.name = 'PortError'
    this.code = code
  }
}
