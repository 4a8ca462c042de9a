import { fork, type ChildProcess } from 'node:child_process'
import cluster from 'node:cluster'
import { randomBytes } from 'node:crypto'
import type { Writable } from 'node:stream'
import type { Address } from 'viem'
import { devKey, LOCAL_ROLES } from '../chain/local-chain.ts'
import { loadProcessSetup, readKeyFile, type Config } from '../config.ts'

/**
 * What the signer process is handed at its start on its own pipe, read once and closed: never
 * in an environment, which the kernel keeps readable in /proc/<pid>/environ for the process's
 * whole life.
 */
export interface SignerSecrets {
  /** Its database connection, as the role hope_signer. */
  databaseUrl: string
  /** The bearer token its callers must show. */
  token: string
  hotWalletKey: `0x${string}` | null
  porPublisherKey: `0x${string}` | null
}

/** The descriptor of the signer's pipe: after stdin, stdout, stderr and the IPC channel. */
export const SIGNER_SECRETS_FD = 4

/** The variables the signer's environment never carries: credentials the parent was given. */
const WITHHELD_FROM_SIGNER = [
  'DATABASE_URL',
  'APP_DATABASE_URL',
  'SIGNER_DATABASE_URL',
  'SIGNER_TOKEN',
  'HOT_WALLET_KEY',
  'POR_PUBLISHER_KEY',
  'HOT_WALLET_KEY_FILE',
  'POR_PUBLISHER_KEY_FILE',
  'OPERATOR_SECRET_KEY',
  'POR_SEAL_KEY',
  'METRICS_TOKEN',
  'REDIS_URL',
]

export interface SignerProcess {
  /** Where the web workers find it, for their environment: no secret among them. */
  env: {
    SIGNER_URL: string
    HOT_WALLET_ADDRESS: string
    POR_PUBLISHER_ADDRESS: string
  }
  /** The bearer token a caller shows; workers get it over IPC (`handOutSignerToken`). */
  token: string
  hotWallet: Address | null
  porPublisher: Address | null
  child: ChildProcess
  stop(): Promise<void>
}

/**
 * Starts the signer process (this same entry with HOPE_ROLE=signer) holding the given keys;
 * they and its database URL go down its own pipe, never into an environment.
 */
export async function startSignerProcess(opts: {
  databaseUrl: string
  hotWalletKey: `0x${string}` | null
  porPublisherKey: `0x${string}` | null
  log: (msg: string) => void
}): Promise<SignerProcess> {
  const token = randomBytes(32).toString('hex')
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of WITHHELD_FROM_SIGNER) delete env[name]
  const child = fork(process.argv[1]!, [], {
    env: { ...env, HOPE_ROLE: 'signer', HOPE_SIGNER_SECRETS: 'pipe' },
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc', 'pipe'],
  })
  const secrets: SignerSecrets = {
    databaseUrl: opts.databaseUrl,
    token,
    hotWalletKey: opts.hotWalletKey,
    porPublisherKey: opts.porPublisherKey,
  }
  const pipe = child.stdio[SIGNER_SECRETS_FD] as Writable
  // A signer that dies before reading breaks the pipe: its exit below says so.
  pipe.on('error', () => {})
  pipe.end(JSON.stringify(secrets))
  const ready = await new Promise<{
    port: number
    hotWallet: Address | null
    porPublisher: Address | null
  }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the signer did not start in 60 s')), 60_000)
    child.on(
      'message',
      (m: {
        hope?: string
        port?: number
        hotWallet?: Address | null
        porPublisher?: Address | null
      }) => {
        if (m?.hope !== 'signer-ready') return
        clearTimeout(timer)
        resolve({
          port: m.port!,
          hotWallet: m.hotWallet ?? null,
          porPublisher: m.porPublisher ?? null,
        })
      },
    )
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the signer exited (${code}) while starting`))
    })
  })
  child.on('exit', (code, signal) => {
    if (!stopping) opts.log(`the signer ended (${signal ?? code})`)
  })
  let stopping = false
  opts.log(`signer ${child.pid} on 127.0.0.1:${ready.port}`)
  return {
    env: {
      SIGNER_URL: `http://127.0.0.1:${ready.port}`,
      HOT_WALLET_ADDRESS: ready.hotWallet ?? '',
      POR_PUBLISHER_ADDRESS: ready.porPublisher ?? '',
    },
    token,
    hotWallet: ready.hotWallet,
    porPublisher: ready.porPublisher,
    child,
    async stop() {
      stopping = true
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise<void>((r) => child.once('exit', () => r()))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    },
  }
}

/**
 * Reads the keys from the operator's key files (HOT_WALLET_KEY_FILE, POR_PUBLISHER_KEY_FILE;
 * the local chain's development keys when `localChain` and unset) and starts the signer holding
 * them; null when there is no key at all.
 */
export async function startSignerWithOwnKeys(opts: {
  /** The signer's database URL (the role hope_signer). */
  databaseUrl: string
  localChain: boolean
  keyFiles: Config['keyFiles']
  log: (msg: string) => void
}): Promise<SignerProcess | null> {
  const { hotWallet, porPublisher } = opts.keyFiles
  const hotWalletKey = hotWallet
    ? readKeyFile(hotWallet, 'HOT_WALLET_KEY_FILE')
    : opts.localChain
      ? devKey(LOCAL_ROLES.hotWallet)
      : null
  const porPublisherKey = porPublisher
    ? readKeyFile(porPublisher, 'POR_PUBLISHER_KEY_FILE')
    : opts.localChain
      ? devKey(LOCAL_ROLES.deployer)
      : null
  if (!hotWalletKey && !porPublisherKey) return null
  return startSignerProcess({
    databaseUrl: opts.databaseUrl,
    hotWalletKey,
    porPublisherKey,
    log: opts.log,
  })
}

const TOKEN_ASKED = 'signer-token?'
const TOKEN_GIVEN = 'signer-token'

/**
 * In a cluster's primary: answers a worker's request for the signer's token over the IPC
 * channel, which only this primary and that worker hold (an environment would keep it in
 * /proc, and pass it to whatever the worker starts).
 */
export function handOutSignerToken(token: string): void {
  cluster.on('message', (worker, msg: unknown) => {
    if ((msg as { hope?: string })?.hope === TOKEN_ASKED && worker.isConnected())
      worker.send({ hope: TOKEN_GIVEN, token })
  })
}

/**
 * The token to show the signer at SIGNER_URL: SIGNER_TOKEN when given (a signer run apart), else
 * in a cluster's worker asked of the primary over IPC; empty when there is none.
 */
export async function signerToken(timeoutMs = 30_000): Promise<string> {
  const given = loadProcessSetup().signerToken
  if (given) return given
  if (!cluster.isWorker || !process.send) return ''
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onMessage)
      reject(new Error(`the primary gave no signer token within ${timeoutMs} ms`))
    }, timeoutMs)
    const onMessage = (msg: unknown) => {
      const m = msg as { hope?: string; token?: string }
      if (m?.hope !== TOKEN_GIVEN || typeof m.token !== 'string') return
      clearTimeout(timer)
      process.off('message', onMessage)
      resolve(m.token)
    }
    process.on('message', onMessage)
    process.send!({ hope: TOKEN_ASKED })
  })
}
