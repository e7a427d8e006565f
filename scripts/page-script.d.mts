export declare const kPageGlobal: '__avaRun'
export declare function buildPageScript(): Promise<string>
