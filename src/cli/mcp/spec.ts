// The options of `ava mcp`, apart from the server so that `ava --help` lists it without loading the SDK.
import type { CommandSpec } from '../args'

export const kMcpSpec: CommandSpec = {
  name: 'mcp',
  args: '[install]',
  summary:
    "Serve Ava's actions, page reading, acting, flows and agent to MCP clients (stdio; --http for loopback HTTP).",
  options: {
    http: {
      type: 'string',
      value: '<port>',
      help: 'serve streamable HTTP on 127.0.0.1:<port>/mcp instead of stdio (0: any free port, printed on stderr)',
    },
    allow: {
      type: 'string',
      value: '<categories>',
      multiple: true,
      help: 'risky steps allowed without a person: credentials, payment, destructive, cross_site, high_risk_action, permission, data_send, or all (default: none, refused)',
    },
    secret: {
      type: 'string',
      value: '<NAME=origin[,origin]>',
      multiple: true,
      help: 'a saved secret: its value is the environment variable NAME, typed only on these origins; clients write ${secret:NAME}',
    },
    flows: {
      type: 'string',
      value: '<dir>',
      multiple: true,
      help: 'a folder of *.flow.json files clients may list and run (default: .ava/flows)',
    },
    'step-limit': { type: 'string', value: '<n>', help: "steps one tool call may take (default 20, as Ava's agent)" },
    'allow-site': {
      type: 'string',
      value: '<host>',
      multiple: true,
      help: 'only these sites (a leading *. matches subdomains)',
    },
    'deny-site': { type: 'string', value: '<host>', multiple: true, help: 'never these sites' },
    chrome: {
      type: 'boolean',
      help: "act in the person's own Chrome through Ava's extension (run `ava mcp install` once) instead of a Chromium of its own",
    },
    'extension-id': {
      type: 'string',
      value: '<id>',
      help: "install: Ava's extension id, the only one the host answers",
    },
    profile: {
      type: 'string',
      value: '<dir>',
      help: "install: register the host in this browser profile only (a --user-data-dir), not for the user's Chrome and Chromium",
    },
    browser: {
      type: 'string',
      value: '<path>',
      help: 'Chromium to use (default: $AVA_CHROMIUM, else /usr/bin/chromium)',
    },
    headed: { type: 'boolean', help: 'show the browser window' },
    isolated: {
      type: 'boolean',
      help: 'keep no cookies or last page for the next server: each server starts with an empty browser (default: kept per client in $AVA_HOME/mcp, so a client that starts a server per call finds its page)',
    },
  },
  notes: `With --chrome the tools act in the person's own Chrome: Ava asks in the panel before a client
drives a tab, shows "<client> is driving this tab" with every step and a Stop button, asks before each
risky step (a no is the tool error DENIED), and the person revokes clients in Ava's options.
Without it, the server starts its own Chromium (headless) on the client's first ava_navigate; nothing runs
before that. Its cookies and storage and the page its tab was last on are kept per client in $AVA_HOME/mcp (~/.ava),
so a client that starts one server per call (the Inspector's CLI) finds the page the last call left,
logged in; what was typed but not submitted is not kept: for that, keep one server (--http) or use
one call (ava_page_act with several instructions, ava_action_run, ava_flow_run). With no person at this browser, a step Ava finds risky (a login, a payment, a delete,
another site) is refused with the tool error DENIED unless its category was given with --allow.
ava_ask needs a model: AVA_PROVIDER (openai, anthropic or local), AVA_BASE_URL, AVA_MODEL and
AVA_API_KEY in the environment (docs/environment.md). See docs/mcp.md. Example (Claude Code):
  claude mcp add ava -- npx ava mcp --allow credentials --secret SHOP_PASSWORD=https://shop.example`,
}
