import { defineConfig } from 'vite'
import vue from '@vitejs/plugin-vue'
import { crx } from '@crxjs/vite-plugin'
import manifest from './manifest.config.ts'

export default defineConfig({
  plugins: [vue(), crx({ manifest })],
  build: {
    target: 'chrome120',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Vite's preload helper would insert <link rel=modulepreload> into the host page from the
    // content script; our chunks load from the extension origin and need no hints.
    modulePreload: false,
    rollupOptions: {
      input: {
        panel: 'src/panel/index.html',
      },
    },
  },
  server: { port: 5174, strictPort: true, hmr: { port: 5174 } },
})
