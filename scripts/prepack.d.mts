// Types for scripts/prepack.mjs (a plain Node script), for the test that imports it.
export declare const kOutputs: string[]
export declare const kInputs: string[]
export declare function rebuildReason(root: string, env?: Record<string, string | undefined>): string | null
