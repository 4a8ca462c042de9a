import { defineConfig } from 'vitest/config'

// Each file starts the real app (embedded PostgreSQL and Anvil) and kills it: one file at a
// time, with room for starts, restarts and the load phase.
export default defineConfig({
  test: {
    name: 'faults',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    testTimeout: 240_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
})
