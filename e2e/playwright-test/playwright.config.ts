import { defineConfig } from '@playwright/test'
import type { AvaOptions } from '../../src/playwright/fixture'

/**
 * The bundled flows on Playwright Test (docs/flows.md, "Playwright Test"):
 *
 *   npm run test:flows                         # all flows, 2 workers, HTML report in .ava-out/
 *   npm run test:flows -- --shard=1/3          # one CI machine's share
 *
 * Chromium starts with Ava's built extension (AVA_DIST, default dist/); `ava run` stays the
 * one-command path for a single flow.
 */
export default defineConfig<AvaOptions>({
  testDir: '.',
  testMatch: '*.spec.ts',
  globalSetup: './global-setup.ts',
  outputDir: '../../.ava-out/playwright-test/results',
  // Each worker starts one Chromium with the extension; flows are independent (cookies cleared).
  fullyParallel: true,
  workers: Number(process.env.AVA_WORKERS) || 2,
  // A flow that fails once and passes on retry is reported as flaky, not hidden.
  retries: process.env.CI ? 2 : 1,
  timeout: 60_000,
  reporter: [['list'], ['html', { open: 'never', outputFolder: '../../.ava-out/playwright-test/report' }]],
  use: {
    headless: true,
    avaTrace: 'retain-on-failure',
  },
})
