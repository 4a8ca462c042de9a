import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { freePort } from '../db/embedded.ts'

export interface LocalChain {
  url: string
  chainId: number
  stop(): Promise<void>
}

export const LOCAL_CHAIN_ID = 31337

/** The Anvil binary shipped inside the registry package for this platform. */
export function anvilBinary(): string {
  const require = createRequire(import.meta.url)
  const platform = `${process.platform === 'win32' ? 'win32' : process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`
  const pkg = path.dirname(require.resolve(`@foundry-rs/anvil-${platform}/package.json`))
  const bin = path.join(pkg, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
  if (!fs.existsSync(bin))
    throw new Error(`Anvil binary missing at ${bin}; reinstall @foundry-rs/anvil`)
  return bin
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

/**
 * Starts Anvil on 127.0.0.1 at a free port. With `stateFile` the chain keeps its state across
 * restarts (dumped every few seconds and on exit); `blockTimeSec` mines blocks on an interval
 * so confirmations advance, without it blocks are mined on demand (tests use `anvil_mine`).
 */
export async function startAnvil(
  opts: { stateFile?: string; blockTimeSec?: number } = {},
): Promise<LocalChain> {
  const port = await freePort()
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--chain-id',
    String(LOCAL_CHAIN_ID),
    '--silent',
  ]
  if (opts.blockTimeSec) args.push('--block-time', String(opts.blockTimeSec))
  if (opts.stateFile) {
    fs.mkdirSync(path.dirname(opts.stateFile), { recursive: true })
    args.push('--state', opts.stateFile, '--state-interval', '5')
  }
  const child: ChildProcess = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (d) => (stderr = (stderr + d).slice(-2000)))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Anvil exited (${child.exitCode}): ${stderr}`)
    try {
      await rpc(url, 'eth_chainId')
      break
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL')
        throw new Error(`Anvil did not answer on ${url}: ${stderr}`)
      }
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return {
    url,
    chainId: LOCAL_CHAIN_ID,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        // SIGINT lets Anvil write its state file before it exits.
        child.kill('SIGINT')
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
      }),
  }
}
