// The options of `ava eval`, apart from the runner so that `ava --help` lists it without loading it.
import type { CommandSpec } from './args'

export const kEvalSpec: CommandSpec = {
  name: 'eval',
  args: '',
  summary:
    "Score the configured model on Ava's own task suite (or on your recorded flows' goals): success, steps, calls, tokens, time, cost.",
  options: {
    tasks: {
      type: 'string',
      value: '<ids>',
      multiple: true,
      help: 'only these tasks: ids or families (form, table, widget, errand, risky, injection), comma-separated; a trailing * matches a prefix',
    },
    flows: {
      type: 'string',
      value: '<dir>',
      help: "score the goals of the flows in this folder instead (each flow's checks are the checker)",
    },
    report: { type: 'string', value: '<file.html>', help: 'also write a self-contained HTML report there' },
    model: {
      type: 'string',
      value: '<name>',
      help: 'the model to score (default: $AVA_MODEL, else the provider default)',
    },
    'step-limit': { type: 'string', value: '<n>', help: 'steps one task may take (default 20)' },
    timeout: { type: 'string', value: '<s>', help: 'seconds one task may take (default 180)' },
    list: { type: 'boolean', help: 'list the tasks and exit' },
    browser: {
      type: 'string',
      value: '<path>',
      help: 'Chromium to use (default: $AVA_CHROMIUM, else /usr/bin/chromium)',
    },
    headed: { type: 'boolean', help: 'show the browser window' },
  },
  notes: `The model comes from the environment, as for \`ava mcp\`: AVA_MODEL_PROVIDER (openai, anthropic or
local), AVA_MODEL_BASE_URL, AVA_MODEL and AVA_API_KEY. The suite's pages are served on 127.0.0.1 by the
command itself; each task runs in a fresh headless Chromium context with Ava's page code, and Ava's
agent plans it with that model. Nobody is there: a risky step Ava asks about is answered yes, and the
task passes only if it was asked. Exit 0 when every task passed, 1 when one did not. See docs/eval.md.
Example:
  AVA_MODEL_PROVIDER=local AVA_MODEL=qwen2.5:7b ava eval --report eval.html`,
}
