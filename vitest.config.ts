import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      'packages/api',
      'packages/por-verify',
      'apps/server',
      'apps/web',
      'apps/admin',
      'tests/faults',
    ],
  },
})
