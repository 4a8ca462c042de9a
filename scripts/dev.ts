// Hot reload: the API restarts on change (node --watch), the web app is served by Vite,
// which proxies /api to the API on PORT (default 8080).
import { spawn } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const children = [
  // Sign-in messages name the page the browser shows: Vite's, unless PUBLIC_URL says otherwise.
  spawn(process.execPath, ['--watch', 'apps/server/src/server.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      HOST: process.env.HOST || 'localhost',
      PUBLIC_URL: process.env.PUBLIC_URL || 'http://127.0.0.1:5173',
    },
  }),
  spawn(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), '--host', '127.0.0.1'],
    {
      cwd: path.join(root, 'apps/web'),
      stdio: 'inherit',
    },
  ),
]
const stop = () => {
  for (const c of children) c.kill('SIGTERM')
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const c of children) c.on('exit', stop)
