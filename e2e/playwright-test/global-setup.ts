import { startSiteServer } from '../support/site-server'

/**
 * The sample site the bundled flows run against (e2e/support/site-server.ts: a real server-side
 * login), on a free loopback port. Workers start after this and inherit the environment, so the
 * specs read its address from AVA_SITE_URL; the returned function is the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const site = await startSiteServer()
  process.env.AVA_SITE_URL = site.url
  // The password the bundled flows read as ${env:ACME_PASSWORD}: in CI it is a secret of the job.
  process.env.ACME_PASSWORD ??= 'wonderland'
  return () => site.close()
}
