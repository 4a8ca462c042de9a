import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const CORE_PACKAGES =
  /\/node_modules\/(react|react-dom|scheduler|react-router|i18next|react-i18next|zustand|classnames|tslib)\//

/** antd-mobile's own helpers that every one of its components imports. */
const ANTD_BASICS =
  /\/antd-mobile\/es\/(utils\/(native-props|with-default-props|attach-properties-to-component)|components\/config-provider\/)/

/** A top-level copy of a package every screen uses (not one nested inside another package). */
function isCoreModule(id: string): boolean {
  if (id.split('/node_modules/').length !== 2) return false
  return CORE_PACKAGES.test(id) || ANTD_BASICS.test(id)
}

export default defineConfig({
  base: './',
  plugins: [react()],
  // `ws`: the support chat's socket (/api/chat/ws) goes through the same proxy.
  server: {
    proxy: {
      '/api': { target: 'http://localhost:8080', ws: true },
      // Images and videos operators upload (and the demo's) are served by the API process.
      '/uploads': 'http://localhost:8080',
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // What every screen needs goes into one chunk: one request, and it compresses better
        // than the handful of small shared chunks the splitter makes otherwise.
        // TanStack Query loads with the first screen or section that fetches, in one piece.
        codeSplitting: {
          groups: [
            { name: 'core', test: isCoreModule },
            { name: 'query', test: /\/node_modules\/@tanstack\// },
          ],
        },
      },
    },
  },
})
