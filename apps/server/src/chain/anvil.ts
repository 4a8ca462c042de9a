import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { http, MethodNotSupportedRpcError, type HttpTransport } from 'viem'
import { freePort, isAlive } from '../lib/process.ts'

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

/** One JSON-RPC call to the node at `url` (its own methods too, such as `evm_mine`). */
export async function anvilRpc(
  url: string,
  method: string,
  params: unknown[] = [],
): Promise<unknown> {
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
 * The transport a wallet sends through to Anvil. Anvil's `eth_fillTransaction` answers an
 * EIP-1559 transaction whatever its hardfork, which a chain from before London (`--hardfork
 * berlin`) then refuses; told the method is not there, viem fills the fields itself from the
 * chain (a legacy gas price where blocks have no base fee).
 */
export function anvilWalletTransport(url: string): HttpTransport {
  const inner = http(url)
  return (params) => {
    const transport = inner(params)
    const request: typeof transport.request = (args, options) =>
      args.method === 'eth_fillTransaction'
        ? Promise.reject(new MethodNotSupportedRpcError(new Error('not asked of Anvil')))
        : transport.request(args, options)
    return { ...transport, request }
  }
}

/** Where the Anvil running on a state file notes its process id. */
const pidFileOf = (stateFile: string) => path.join(path.dirname(stateFile), 'anvil.pid')

/** Whether process `pid` is an Anvil working on `stateFile` (not a process that reused the id). */
function isAnvilOn(pid: number, stateFile: string): boolean {
  if (!isAlive(pid)) return false
  let command: string
  try {
    command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    try {
      command = execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' })
    } catch {
      return false
    }
  }
  return command.includes('anvil') && command.includes(stateFile)
}

/**
 * A killed app leaves its Anvil running, still mining and dumping its state into the state
 * file every few seconds: a second one started on that file would load a state seconds old,
 * and the two would overwrite each other's. Stop it first; SIGINT makes it write its newest
 * state as it exits.
 */
async function stopStaleAnvil(stateFile: string): Promise<void> {
  const pidFile = pidFileOf(stateFile)
  if (!fs.existsSync(pidFile)) return
  const pid = Number(fs.readFileSync(pidFile, 'utf8').trim())
  if (!Number.isInteger(pid) || pid <= 0 || !isAnvilOn(pid, stateFile)) return
  process.kill(pid, 'SIGINT')
  const deadline = Date.now() + 15_000
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
  if (isAlive(pid)) process.kill(pid, 'SIGKILL')
}

/**
 * Where Anvil writes its output: `anvil.log` beside its state file, started afresh with each
 * run (it names every RPC call, so it says what the chain was asked); a chain without a state
 * file writes into a folder of its own that goes when it exits.
 */
function anvilLog(stateFile: string | undefined): { file: string; dispose: () => void } {
  if (stateFile) return { file: path.join(path.dirname(stateFile), 'anvil.log'), dispose: () => {} }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-anvil-'))
  return {
    file: path.join(dir, 'anvil.log'),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  }
}

/**
 * Starts Anvil on 127.0.0.1 at a free port. With `stateFile` the chain keeps its state across
 * restarts (dumped every few seconds and on exit); `blockTimeSec` mines blocks on an interval
 * so confirmations advance, without it blocks are mined on demand (tests use `anvil_mine`).
 */
export async function startAnvil(
  opts: Parameters<typeof launchAnvil>[0] = {},
): Promise<LocalChain> {
  const anvil = await launchAnvil(opts)
  await anvil.ready
  return anvil
}

/** An Anvil just spawned: `ready` settles when it answers; `fresh` when it has no state yet. */
export type LaunchedAnvil = LocalChain & { ready: Promise<void>; fresh: boolean }

/**
 * Spawns Anvil as `startAnvil` does and answers at once with its URL (the port is chosen before
 * the spawn), so a client can be made while Anvil loads its state; `ready` settles when it
 * answers (or rejects when it exits or does not answer within 20 s, killing it).
 */
export async function launchAnvil(
  opts: {
    stateFile?: string
    blockTimeSec?: number
    preferredPort?: number
    chainId?: number
    /**
     * The EVM rules to run, e.g. 'berlin': a chain from before London, without EIP-1559 (no
     * base fee, legacy gas prices only); Anvil's newest by default.
     */
    hardfork?: string
  } = {},
): Promise<LaunchedAnvil> {
  if (opts.stateFile) {
    fs.mkdirSync(path.dirname(opts.stateFile), { recursive: true })
    await stopStaleAnvil(opts.stateFile)
  }
  // Known only once a stale Anvil is gone: it writes its newest state as it exits, and a chain
  // that its app left before the first periodic write would otherwise look fresh.
  const fresh = !opts.stateFile || !fs.existsSync(opts.stateFile)
  // Chosen once a stale Anvil is gone, so that the port it held counts as free again.
  const port = await freePort(opts.preferredPort)
  const chainId = opts.chainId ?? LOCAL_CHAIN_ID
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId)]
  if (opts.blockTimeSec) args.push('--block-time', String(opts.blockTimeSec))
  if (opts.hardfork) args.push('--hardfork', opts.hardfork)
  if (opts.stateFile) args.push('--state', opts.stateFile, '--state-interval', '5')
  // Anvil writes its output to a file, never to a pipe: an app killed without warning leaves its
  // Anvil running, and Anvil exits at its next line into a pipe nobody reads ("Broken pipe")
  // without writing its newest state. A file outlives the app.
  const log = anvilLog(opts.stateFile)
  // Emptied, then appended to: every line lands at the end, whoever still holds the file.
  fs.writeFileSync(log.file, '')
  const out = fs.openSync(log.file, 'a')
  const child: ChildProcess = spawn(anvilBinary(), args, { stdio: ['ignore', out, out] })
  fs.closeSync(out)
  const url = `http://127.0.0.1:${port}`
  // Anvil prints its accounts, then "Listening on <host:port>" once it accepts requests: the log
  // is read for that line, as it grows. Asking Anvil over RPC meanwhile would cost a failed
  // request every few milliseconds; a slow RPC poll stays as a fallback, should the line ever
  // read otherwise.
  const ready = new Promise<void>((resolve, reject) => {
    let offset = 0
    let tail = ''
    let settled = false
    const settle = (err?: Error) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      clearInterval(poll)
      clearInterval(watch)
      if (err) {
        child.kill('SIGKILL')
        reject(err)
      } else resolve()
    }
    /** The log's new bytes, the last 2,000 characters of it kept for an error's message. */
    const readLog = (): string => {
      try {
        const fd = fs.openSync(log.file, 'r')
        try {
          const chunk = Buffer.alloc(16_384)
          const n = fs.readSync(fd, chunk, 0, chunk.length, offset)
          offset += n
          tail = (tail + chunk.subarray(0, n).toString('utf8')).slice(-2000)
        } finally {
          fs.closeSync(fd)
        }
      } catch {
        // Removed with its folder once Anvil exited: what was read is what there is.
      }
      return tail
    }
    const watch = setInterval(() => {
      if (readLog().includes('Listening on')) settle()
    }, 10)
    child.once('exit', (code) => settle(new Error(`Anvil exited (${code}): ${readLog()}`)))
    const deadline = setTimeout(
      () => settle(new Error(`Anvil did not answer on ${url}: ${readLog()}`)),
      20_000,
    )
    const poll = setInterval(() => {
      anvilRpc(url, 'eth_chainId').then(
        () => settle(),
        () => {},
      )
    }, 500)
  })
  // After `ready`'s own listener, which reads the log's last lines for its error.
  child.once('exit', log.dispose)
  const pidFile = opts.stateFile ? pidFileOf(opts.stateFile) : null
  if (pidFile && child.pid) fs.writeFileSync(pidFile, String(child.pid))
  // Its failure is reported where `ready` is awaited.
  ready.catch(() => {})
  child.once('exit', () => {
    if (pidFile && fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') === String(child.pid))
      fs.rmSync(pidFile, { force: true })
  })
  return {
    url,
    chainId,
    ready,
    fresh,
    stop: () =>
      new Promise<void>((resolve) => {
        // Already gone (it exited, or was killed by a signal): nothing to wait for.
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        // SIGINT lets Anvil write its state file before it exits.
        child.kill('SIGINT')
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
      }),
  }
}

/** Where a running app's local chain answers, from the note it keeps under DATA_DIR. */
export function localChainNote(dataDir: string): string {
  return path.join(dataDir, 'chain', 'anvil.json')
}

export function writeLocalChainNote(dataDir: string, url: string): void {
  fs.writeFileSync(localChainNote(dataDir), JSON.stringify({ url, pid: process.pid }))
}

interface LocalChainNote {
  url: string
  pid: number
}

/** The note the app's local chain left, when there is a readable one. */
function readLocalChainNote(dataDir: string): LocalChainNote | null {
  try {
    return JSON.parse(fs.readFileSync(localChainNote(dataDir), 'utf8')) as LocalChainNote
  } catch {
    return null
  }
}

/**
 * The port the app's local chain had when it last ran, kept across restarts when it is free: a
 * wallet that added the chain keeps reaching it, and the settings need no change.
 */
export function lastLocalChainPort(dataDir: string): number | undefined {
  const note = readLocalChainNote(dataDir)
  return (note && Number(URL.parse(note.url)?.port)) || undefined
}

/** The local chain's URL while the app that noted it still runs; null otherwise. */
export function runningLocalChain(dataDir: string): string | null {
  const note = readLocalChainNote(dataDir)
  if (!note) return null
  try {
    process.kill(note.pid, 0)
    return note.url
  } catch {
    return null
  }
}
