// The server's entry (`npm start`). Node's compile cache keeps every loaded module compiled on
// disk (under the OS temp directory), so a restart skips parsing and type-stripping the few
// thousand files the server loads; then the server itself (main.ts) loads and starts.
import module from 'node:module'

module.enableCompileCache?.()
await import('./main.ts')
