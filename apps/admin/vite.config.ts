import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** The operator console: its own bundle, served by the API server at `/admin/`. */
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  server: {
    port: 5174,
    proxy: { '/api': 'http://localhost:8080', '/uploads': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // antd alone is about 1 MB minified; each screen loads only the components it uses.
    chunkSizeWarningLimit: 1200,
  },
})
