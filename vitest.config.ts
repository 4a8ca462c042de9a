import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: ['packages/api', 'apps/server', 'apps/web', 'apps/admin', 'tests/faults'],
  },
})
