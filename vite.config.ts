import { defineConfig } from 'vite'
import vue from '@vitejs/plugin-vue'
import { crx } from '@crxjs/vite-plugin'
import manifest from './manifest.config.ts'

export default defineConfig({
  plugins: [vue(), crx({ manifest })],
  // vue-i18n's bundler flags (src/ui/i18n.ts): composition API only, no global <i18n-t> etc., no
  // devtools; the message compiler stays (it builds an AST, no eval: safe under our CSP).
  define: {
    __VUE_I18N_FULL_INSTALL__: false,
    __VUE_I18N_LEGACY_API__: false,
    __INTLIFY_DROP_MESSAGE_COMPILER__: false,
    __INTLIFY_PROD_DEVTOOLS__: false,
  },
  build: {
    target: 'chrome120',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Vite's preload helper would insert <link rel=modulepreload> into the host page from the
    // content script; our chunks load from the extension origin and need no hints.
    modulePreload: false,
    // Vite's 500 kB warning is advice for pages fetched over a network; the extension's files load
    // from disk, and the service worker (the AI SDK, zod, the registry) is one 630 kB file. Warn
    // past 1 MB, which would be news.
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      input: {
        panel: 'src/panel/index.html',
        // The first-run page: opened by the background on install, named in no manifest field.
        welcome: 'src/welcome/index.html',
      },
    },
  },
  server: { port: 5174, strictPort: true, hmr: { port: 5174 } },
})
