import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  plugins: [vue()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          // dom/ and UI tests opt in with `// @vitest-environment happy-dom`.
          // Property tests run hundreds of cases: 2.6 s alone is 5–8 s on a loaded 2-core CI machine
          // (seen with two unit runs at once), past vitest's 5 s default.
          testTimeout: 30_000,
          // A poll waits for what a timer or a promise chain will do; vitest's 1 s default ran out
          // under load (as in e2e below).
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // Drives two busy browsers on purpose: it runs alone afterwards (project e2e-stress).
          exclude: ['e2e/foundation/channel-stress.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // What a test waits for in a browser (an observer's report, a streamed step) can take
          // several seconds on a loaded 2-core CI machine; vitest's default of 1 s made polls flaky.
          expect: { poll: { timeout: 10_000 } },
          // Two files at a time, one Chromium each: on a 2-core CI machine the tier took 21 min one
          // file at a time and 15 min two at a time (most of a test is waiting on a page or a
          // streamed answer). Every file has its own browser profile, servers and temp dirs.
          fileParallelism: true,
          maxWorkers: 2,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e-stress',
          include: ['e2e/foundation/channel-stress.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
          pool: 'forks',
        },
      },
    ],
  },
})
