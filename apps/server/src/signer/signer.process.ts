import { fork, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import type { Address } from 'viem'
import { devKey, LOCAL_ROLES } from '../chain/local-chain.ts'

export interface SignerProcess {
  /** What the web workers need to ask it: no key among them. */
  env: {
    SIGNER_URL: string
    SIGNER_TOKEN: string
    HOT_WALLET_ADDRESS: string
    POR_PUBLISHER_ADDRESS: string
  }
  hotWallet: Address | null
  porPublisher: Address | null
  child: ChildProcess
  stop(): Promise<void>
}

/**
 * Starts the signer process (this same entry with HOPE_ROLE=signer) holding the given keys;
 * they go into its environment only, never into this process's or a worker's.
 */
export async function startSignerProcess(opts: {
  databaseUrl: string
  hotWalletKey: string | null
  porPublisherKey: string | null
  log: (msg: string) => void
}): Promise<SignerProcess> {
  const token = randomBytes(32).toString('hex')
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.HOT_WALLET_KEY
  delete env.POR_PUBLISHER_KEY
  const child = fork(process.argv[1]!, [], {
    env: {
      ...env,
      HOPE_ROLE: 'signer',
      DATABASE_URL: opts.databaseUrl,
      SIGNER_TOKEN: token,
      ...(opts.hotWalletKey ? { HOT_WALLET_KEY: opts.hotWalletKey } : {}),
      ...(opts.porPublisherKey ? { POR_PUBLISHER_KEY: opts.porPublisherKey } : {}),
    },
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
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
      SIGNER_TOKEN: token,
      HOT_WALLET_ADDRESS: ready.hotWallet ?? '',
      POR_PUBLISHER_ADDRESS: ready.porPublisher ?? '',
    },
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
 * Takes the keys from this process's environment (HOT_WALLET_KEY, POR_PUBLISHER_KEY; the local
 * chain's development keys when `localChain` and unset), forgets them here, and starts the
 * signer holding them; null when there is no key at all.
 */
export async function startSignerWithOwnKeys(opts: {
  databaseUrl: string
  localChain: boolean
  log: (msg: string) => void
}): Promise<SignerProcess | null> {
  const hotWalletKey =
    process.env.HOT_WALLET_KEY || (opts.localChain ? devKey(LOCAL_ROLES.hotWallet) : null)
  const porPublisherKey =
    process.env.POR_PUBLISHER_KEY || (opts.localChain ? devKey(LOCAL_ROLES.deployer) : null)
  delete process.env.HOT_WALLET_KEY
  delete process.env.POR_PUBLISHER_KEY
  if (!hotWalletKey && !porPublisherKey) return null
  return startSignerProcess({
    databaseUrl: opts.databaseUrl,
    hotWalletKey,
    porPublisherKey,
    log: opts.log,
  })
}
