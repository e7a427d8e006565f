// Types for scripts/check-comments.mjs (a plain Node script), for the test that imports it.
export declare function citingLines(text: string): string[]
