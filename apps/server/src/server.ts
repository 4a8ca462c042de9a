// The server's entry (`npm start`). Node's compile cache keeps every loaded module compiled on
// disk (under the OS temp directory), so a restart skips parsing and type-stripping the few
// thousand files the server loads; then the server starts: one process (main.ts), or with
// WEB_CONCURRENCY > 1 a primary forking that many workers that each run main.ts (cluster.ts).
import module from 'node:module'

module.enableCompileCache?.()
// The signer process (signer/signer-main.ts) is this same entry, forked with HOPE_ROLE=signer.
const { loadProcessSetup } = await import('./config.ts')
if (loadProcessSetup().role === 'signer') await import('./signer/signer-main.ts')
else {
  // A lone process starts its database and chain first: they boot while the rest loads.
  const { startServicesEarly } = await import('./start-early.ts')
  startServicesEarly()
  await import('./cluster.ts')
}
