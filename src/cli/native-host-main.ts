// The native host Chrome starts for Ava's extension, as `ava mcp install` copies it into
// ~/.ava/native-host: built on its own (scripts/build-cli.mjs) from mcp/native.ts, which needs
// nothing but Node, so the copy runs whatever happens to the package that installed it.
import { runNativeHost } from './mcp/native'

await runNativeHost({ input: process.stdin, output: process.stdout })
