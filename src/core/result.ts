/**
 * What every `safeParseX` returns, in zod's shape so the same narrowing works on ours and on
 * zod's (STYLE.md: `parseX` throws, `safeParseX` returns the error as data).
 */
export type SafeParseResult<T, E> =
  { success: true; data: T; error?: never } | { success: false; data?: never; error: E }
