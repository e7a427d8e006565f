/**
 * Plans the scripted model sends against the sample site (e2e/support/site-server.ts): what a
 * model writes for "log in as alice", step for step, so each test scripts the same login.
 */
export interface PlannedStep {
  step_id: number
  action_type: string
  params: Record<string, unknown>
  description?: string
}

/** Open the sign-in page, type alice's name and password, log in, check the dashboard. */
export function loginPlan(base: string): PlannedStep[] {
  return [
    { step_id: 1, action_type: 'navigate', params: { url: `${base}/login` }, description: 'Open the sign-in page' },
    {
      step_id: 2,
      action_type: 'input',
      params: { semantic_locator: 'username input', fallback_selector: '#username', value: 'alice' },
      description: 'Type the username',
    },
    {
      step_id: 3,
      action_type: 'input',
      params: { semantic_locator: 'password input', fallback_selector: '#password', value: 'wonderland' },
      description: 'Type the password',
    },
    {
      step_id: 4,
      action_type: 'click',
      params: { semantic_locator: 'Log in button', fallback_selector: 'button[type=submit]' },
      description: 'Log in',
    },
    {
      step_id: 5,
      action_type: 'verify',
      params: { assertion: 'The page shows "Welcome, alice" and "Dashboard"' },
      description: 'Check the dashboard',
    },
  ]
}
