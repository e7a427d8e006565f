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
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          pool: 'forks',
        },
      },
    ],
  },
})
