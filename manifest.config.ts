import { defineManifest } from '@crxjs/vite-plugin'
import pkg from './package.json' with { type: 'json' }

// Host permissions: Ava reads and acts on whatever page the person uses it on, which the content
// script's <all_urls> match already asks for at install ("read and change all your data on all
// websites"); the same grant as a host permission adds no new warning and lets the background
// count a tab's in-flight requests (readiness) and reach any LLM endpoint the person configures.
export default defineManifest({
  manifest_version: 3,
  // Name and description come from public/_locales (chrome.i18n), so the toolbar, the extensions
  // page and the Web Store listing follow the browser's language.
  default_locale: 'en',
  name: '__MSG_extName__',
  short_name: '__MSG_extName__',
  description: '__MSG_extDescription__',
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
      // Cross-origin frames are read by the content script inside them; only the
      // top frame shows the Ava button. No match_about_blank: an about:blank or srcdoc frame is
      // same-origin with its parent, whose scan reads it, unless sandboxed, and then it stays
      // listed as cross_origin_restricted.
      all_frames: true,
    },
    {
      // Listener hints: in the page's own world before its scripts run, to see which
      // elements they listen on; tiny, no imports, invisible to the page. Frames as above.
      matches: ['<all_urls>'],
      js: ['src/content/listeners-main.ts'],
      run_at: 'document_start',
      world: 'MAIN',
      all_frames: true,
    },
  ],
  // The chat panel is framed into pages by the boot script; only the HTML entry must be reachable
  // from the page, and the frame refuses to work without the boot script's one-time token.
  web_accessible_resources: [{ resources: ['src/panel/index.html'], matches: ['<all_urls>'] }],
  // Extension pages load nothing remote by themselves: an answer's markdown is
  // sanitised (src/panel/markdown.ts) and this is the second wall, should a construct slip through.
  // connect-src stays open: this policy also governs the service worker, whose fetch reaches the
  // LLM endpoint the person configures. Inline styles are Vue's; url() in them is still img-src.
  content_security_policy: {
    extension_pages:
      "script-src 'self'; object-src 'none'; base-uri 'none'; img-src 'self' data:; media-src 'none'; font-src 'self'; style-src 'self' 'unsafe-inline'; frame-src 'none'",
  },
  // scripting: reading a component library's version global in the page's main world with a
  // fixed function. userScripts (optional): `eval` steps of action packs.
  // webRequest: counting a tab's in-flight requests while a run waits for the page to settle.
  // declarativeNetRequestWithHostAccess: while a run is active in a tab, session rules scoped to
  // that tab stop top-level loads of blocked sites and of other sites nobody said yes to. The
  // host-access form acts only where host permissions reach (all sites already) and adds
  // no install warning, so an update does not disable Ava until the person accepts a new one.
  // tabGroups: a run's tabs are kept together in one named group, so the person sees what Ava
  // opened (docs/agent.md, "Tabs"); without it the tabs are only opened beside the run's.
  // alarms: waking the worker while a run is in flight, and at each schedule's due time.
  // notifications: a scheduled run tells the person what a watch found, that a step waits for their
  // yes, or that it failed or was skipped, while nobody is looking at its tab (docs/agent.md, "Schedules").
  // nativeMessaging: `ava mcp --chrome` reaches Ava through a host the person installs with
  // `ava mcp install` (docs/mcp.md); without one nothing connects.
  permissions: [
    'storage',
    'tabs',
    'webNavigation',
    'scripting',
    'webRequest',
    'declarativeNetRequestWithHostAccess',
    'alarms',
    'nativeMessaging',
    'tabGroups',
    'notifications',
  ],
  // downloads (optional): seeing the files a page downloads during a run, to read them or upload
  // them elsewhere; asked for when the person first wants it (Options, "Downloaded files").
  optional_permissions: ['userScripts', 'downloads'],
  host_permissions: ['<all_urls>'],
  commands: {
    'open-panel': {
      suggested_key: { default: 'Alt+Shift+A' },
      description: 'Open the Ava panel',
    },
  },
})
