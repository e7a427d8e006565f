// The options of `ava run`, apart from run.ts so that `ava --help` and `ava action …` list it
// without loading the runner.
import { kParamOption, type CommandSpec } from './args'

export const kRunSpec: CommandSpec = {
  name: 'run',
  args: '<flow.json | pack.yaml | action>  |  --schema <file.json> --url <url>',
  summary: 'Run a recorded flow or a pack action in Chromium, one trace line per step; or extract rows in a shape.',
  options: {
    url: { type: 'string', value: '<url>', help: "page to start on (default: the flow's start_url)" },
    param: kParamOption,
    action: { type: 'string', value: '<name>', help: 'which action of a pack file to run (when it has several)' },
    browser: {
      type: 'string',
      value: '<path>',
      help: 'Chromium to use (default: $AVA_CHROMIUM, else /usr/bin/chromium)',
    },
    headed: { type: 'boolean', help: 'show the browser window' },
    timeout: {
      type: 'string',
      value: '<ms>',
      help: 'time each step may take to find its element (flows; default per step)',
    },
    screenshot: {
      type: 'string',
      value: '<path>',
      help: 'where to write the screenshot on failure (default .ava-out/run-failure-<time>.png)',
    },
    allow: {
      type: 'string',
      value: '<categories>',
      multiple: true,
      help: 'risky steps taken without a person: credentials, payment, destructive, cross_site, high_risk_action, permission, data_send, or all (default: none, each refused with UNATTENDED before it acts)',
    },
    yes: { type: 'boolean', help: 'take every risky step without stopping (--allow all)' },
    schema: {
      type: 'string',
      value: '<file.json>',
      help: "extract rows fitting this JSON Schema with Ava's agent and the model from the environment (AVA_PROVIDER, AVA_BASE_URL, AVA_MODEL, AVA_API_KEY); the rows go to stdout as JSON (docs/extraction.md)",
    },
    ask: {
      type: 'string',
      value: '<request>',
      help: 'with --schema: what to get, in words (default: "Get the <fields> of every item")',
    },
    report: {
      type: 'string',
      value: '<file>',
      help: "write the run's record there: one HTML file to open anywhere, or JSON when the name ends in .json (docs/run-record.md)",
    },
  },
  notes: `<action> is a name such as common:auth:login (see \`ava action list\`).
A run fails (exit 1) when a step fails or the action's verify finds the result wrong, e.g. a
login that stays on the login form. The action name and its parameters are checked before
Chromium starts. Nobody is there to answer a question: a step the page judges destructive, a
payment, a grant of access or another high-risk action stops the run (exit 1) before it acts,
naming the step, unless --yes is given. Example:
  ava run common:auth:login --url https://example.test/login --param username=alice --param password=$PW
With --schema, the run exits 1 when it ends without rows, 2 when the schema cannot be read:
  ava run --schema product.json --url https://shop.test/products --ask "the name and price of every product"`,
}
