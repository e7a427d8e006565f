// The options of `ava action run` and `ava action debug`, apart from action-run.ts so that help
// and the command list do not load the runner (as run-spec.ts does for `ava run`).
import { kParamOption, type CommandSpec } from './args'

const kShared: CommandSpec['options'] = {
  url: { type: 'string', value: '<url>', help: 'page to start on (required)' },
  param: kParamOption,
  'continue-on-error': {
    type: 'boolean',
    help: 'run the remaining steps after a step fails; the run still fails',
  },
  'step-delay': { type: 'string', value: '<ms>', help: 'pause between steps' },
  browser: {
    type: 'string',
    value: '<path>',
    help: 'Chromium to use (default: $AVA_CHROMIUM, else /usr/bin/chromium)',
  },
  headed: { type: 'boolean', help: 'show the browser window' },
  allow: {
    type: 'string',
    value: '<categories>',
    multiple: true,
    help: 'risky steps taken without a person: credentials, payment, destructive, cross_site, high_risk_action, permission, data_send, or all (default: none, each refused with UNATTENDED before it acts)',
  },
  yes: { type: 'boolean', help: 'take every risky step without stopping (--allow all)' },
  screenshot: {
    type: 'string',
    value: '<path>',
    help: 'where to write the screenshot on failure (default .ava-out/run-failure-<time>.png)',
  },
}

export const kActionRunSpec: CommandSpec = {
  name: 'action run',
  args: '<action>',
  summary: 'Run one action in Chromium, one trace line per step.',
  options: kShared,
  notes: `The action name and its parameters are checked before Chromium starts. ~/.ava/config.yaml
(actions.default_timeout, debug, detect_version) applies. Example:
  ava action run common:auth:login --url https://example.test/login --param username=alice --param password=$PW`,
}

export const kActionDebugSpec: CommandSpec = {
  name: 'action debug',
  args: '<action>',
  summary: "Run one action step by step, printing each step's resolved arguments and result.",
  options: { ...kShared, 'no-pause': { type: 'boolean', help: 'do not wait for Enter before each step' } },
  notes: `Before each step it waits for Enter (s: run the rest without pausing, q: stop) — only when
stdin and stdout are a terminal and --json is not given; in CI it never waits. Secret parameters
show as ***.`,
}
