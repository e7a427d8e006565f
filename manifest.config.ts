import { defineManifest } from '@crxjs/vite-plugin'
import pkg from './package.json' with { type: 'json' }

// Host permissions: loopback (local models such as Ollama, and the test server) and the two
// big hosted providers are granted at install; any other endpoint's origin is requested from the
// options page when it is saved (optional_host_permissions), so nobody grants "every site" by default.
export default defineManifest({
  manifest_version: 3,
  name: 'Ava',
  short_name: 'Ava',
  description: pkg.description,
  version: pkg.version,
  icons: { 16: 'icons/16.png', 32: 'icons/32.png', 48: 'icons/48.png', 128: 'icons/128.png' },
  action: {
    default_title: 'Ava',
    default_popup: 'src/popup/index.html',
    default_icon: { 16: 'icons/16.png', 32: 'icons/32.png' },
  },
  options_page: 'src/options/index.html',
  background: { service_worker: 'src/background/index.ts', type: 'module' },
  content_scripts: [
    {
      matches: ['<all_urls>'],
      js: ['src/content/boot.ts'],
      run_at: 'document_idle',
    },
  ],
  // The chat panel is framed into pages by the boot script; only the HTML entry must be reachable
  // from the page, and the frame refuses to work without the boot script's one-time token.
  web_accessible_resources: [{ resources: ['src/panel/index.html'], matches: ['<all_urls>'] }],
  // scripting: reading a component library's version global in the page's main world with a
  // fixed function (seed 000 §6.5.2). userScripts (optional): `eval` steps of action packs.
  permissions: ['storage', 'tabs', 'webNavigation', 'scripting'],
  optional_permissions: ['userScripts'],
  host_permissions: [
    'http://localhost/*',
    'http://127.0.0.1/*',
    'https://api.anthropic.com/*',
    'https://api.openai.com/*',
  ],
  optional_host_permissions: ['https://*/*', 'http://*/*'],
  commands: {
    'open-panel': {
      suggested_key: { default: 'Alt+Shift+A' },
      description: 'Open the Ava panel',
    },
  },
})
