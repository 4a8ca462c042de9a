import { defineProject, mergeConfig } from 'vitest/config'
import viteConfig from './vite.config.ts'

export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: 'admin',
      environment: 'jsdom',
      // Room for a loaded machine: typing and rendering take several times longer there.
      testTimeout: 20_000,
      setupFiles: ['./src/test/setup.ts'],
    },
  }),
)
