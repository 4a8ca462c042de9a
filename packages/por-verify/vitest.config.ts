import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { name: 'por-verify', environment: 'node', testTimeout: 60_000 },
})
