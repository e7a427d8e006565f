// The options of `ava doctor`, apart from doctor.ts so that `ava --help` lists it without loading the checks.
import type { CommandSpec } from './args'

export const kDoctorSpec: CommandSpec = {
  name: 'doctor',
  args: '',
  summary:
    "Check Node, Chromium, the built extension, the model, Ollama's origins and the native host, and say what to fix.",
  options: {
    browser: {
      type: 'string',
      value: '<path>',
      help: 'Chromium to check (default: $AVA_CHROMIUM, else /usr/bin/chromium)',
    },
    profile: {
      type: 'string',
      value: '<dir>',
      help: 'look for the native host in this browser profile (a --user-data-dir), as `ava mcp install --profile` writes it',
    },
  },
  notes: `The model is the one named by AVA_PROVIDER, AVA_BASE_URL, AVA_API_KEY and AVA_MODEL
(docs/environment.md), asked what the extension's Test connection asks. Each check prints ok,
warn, FAIL or -- (not checked) and what to do; docs/troubleshooting.md says more.
Exit 1 when a check fails (Node, Chromium, the extension, the model named, Ollama refusing the
extension); a missing native host is a warning, since only \`ava mcp --chrome\` needs it.`,
}
