import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { credentialUrls, loadConfig, loadProcessSetup, requirePublicUrl } from './config.ts'

describe('PUBLIC_URL: the site sign-in messages name', () => {
  const publicUrl = (env: NodeJS.ProcessEnv) => requirePublicUrl(loadConfig(env))

  test('on this machine it follows where the server listens', () => {
    expect(loadConfig({})).toMatchObject({ host: 'localhost', publicUrl: 'http://localhost:8080' })
    expect(publicUrl({ HOST: '127.0.0.1', PORT: '41234' })).toBe('http://127.0.0.1:41234')
    expect(publicUrl({ HOST: '::1', PORT: '41234' })).toBe('http://[::1]:41234')
    expect(publicUrl({ HOST: 'localhost', PORT: '3000' })).toBe('http://localhost:3000')
  })

  test('beyond the loopback, on a port of its choosing or in production it must be given', () => {
    for (const env of [
      { HOST: '0.0.0.0' },
      { HOST: '::' },
      { HOST: '192.168.1.20' },
      { NODE_ENV: 'production' },
      { HOST: '127.0.0.1', NODE_ENV: 'production' },
      { HOST: '127.0.0.1', PORT: '0' },
    ])
      expect(() => publicUrl(env), JSON.stringify(env)).toThrow(/PUBLIC_URL is required/)
    expect(
      publicUrl({ HOST: '0.0.0.0', NODE_ENV: 'production', PUBLIC_URL: 'https://hope.example/' }),
    ).toBe('https://hope.example')
  })

  test('given, it is an http(s) origin, and the server listens on every interface by default', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://Hope.Example:443' })).toMatchObject({
      host: '0.0.0.0',
      publicUrl: 'https://hope.example',
    })
    for (const bad of [
      'hope.example',
      'ftp://hope.example',
      'https://hope.example/app',
      'https://a@hope.example',
    ])
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL must be .* origin/)
  })

  test('PUBLIC_ORIGINS lists the other origins of the same site', () => {
    expect(loadConfig({}).publicOrigins).toEqual([])
    expect(
      loadConfig({
        PUBLIC_URL: 'https://hope.example',
        PUBLIC_ORIGINS: ' https://www.hope.example, http://hope.example:8443 ,',
      }).publicOrigins,
    ).toEqual(['https://www.hope.example', 'http://hope.example:8443'])
    expect(() =>
      loadConfig({ PUBLIC_ORIGINS: 'https://www.hope.example,www.hope.example' }),
    ).toThrow(/PUBLIC_ORIGINS must be .* origin/)
  })
})

describe('DB_*_TIMEOUT_MS: the limits on the app’s connections', () => {
  test('5 s a statement, 2 s a lock wait, 10 s idle in a transaction unless given', () => {
    expect(loadConfig({}).dbTimeouts).toEqual({
      statementMs: 5_000,
      lockMs: 2_000,
      idleInTransactionMs: 10_000,
    })
    expect(
      loadConfig({
        DB_STATEMENT_TIMEOUT_MS: '15000',
        DB_LOCK_TIMEOUT_MS: '0',
        DB_IDLE_TX_TIMEOUT_MS: '60000',
      }).dbTimeouts,
    ).toEqual({ statementMs: 15_000, lockMs: 0, idleInTransactionMs: 60_000 })
  })

  test('anything but milliseconds up to an hour stops the start', () => {
    for (const bad of ['5s', '-1', '1.5', '3600001'])
      expect(() => loadConfig({ DB_LOCK_TIMEOUT_MS: bad })).toThrow(/DB_LOCK_TIMEOUT_MS/)
  })
})

describe('BACKUP_KEY: what the base backups encrypt the keys with', () => {
  test('32 bytes as hex or base64; anything else is refused naming the variable', () => {
    const hex = 'ab'.repeat(32)
    expect(loadConfig({ BACKUP_KEY: hex }).backup.key).toEqual(Buffer.from(hex, 'hex'))
    const b64 = Buffer.alloc(32, 3).toString('base64')
    expect(loadConfig({ BACKUP_KEY: b64 }).backup.key).toEqual(Buffer.alloc(32, 3))
    expect(loadConfig({}).backup.key).toBeUndefined()
    expect(() => loadConfig({ BACKUP_KEY: 'short' })).toThrow(/BACKUP_KEY must be 32 bytes/)
  })
})

describe('the process setup and the variables read', () => {
  test('what a parent hands this process, and its defaults', () => {
    expect(loadProcessSetup({})).toEqual({
      role: 'server',
      clusterPrepared: false,
      signerUrl: undefined,
      signerToken: undefined,
      hotWalletAddress: undefined,
      porPublisherAddress: undefined,
      signerSecretsByPipe: false,
      signerHost: '127.0.0.1',
      signerPort: 0,
      workers: 1,
      workerStallMs: 30_000,
    })
    expect(
      loadProcessSetup({
        HOPE_ROLE: 'signer',
        HOPE_CLUSTER_PREPARED: 'true',
        SIGNER_URL: 'http://127.0.0.1:9',
        HOPE_SIGNER_SECRETS: 'pipe',
        WEB_CONCURRENCY: '2',
        WORKER_STALL_MS: '500',
      }),
    ).toMatchObject({
      role: 'signer',
      clusterPrepared: true,
      signerUrl: 'http://127.0.0.1:9',
      signerSecretsByPipe: true,
      workers: 2,
      workerStallMs: 500,
    })
    expect(
      credentialUrls({ CHAIN_RPC_URLS: 'https://a,https://b', DATABASE_URL: 'postgres://x' }),
    ).toEqual(expect.arrayContaining(['https://a', 'https://b', 'postgres://x']))
  })

  test('no module reads a variable by name but config.ts (and the few that only hand env on)', () => {
    const dir = path.join(import.meta.dirname)
    const files: string[] = []
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const f = path.join(d, e.name)
        if (e.isDirectory()) walk(f)
        else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) files.push(f)
      }
    }
    walk(dir)
    // Reading a variable by name: process.env.X or an env parameter's env.X (not an assignment).
    const reads = files
      .filter((f) => !/[\\/](config\.ts|testing[\\/])/.test(f))
      .flatMap((f) =>
        [
          ...fs
            .readFileSync(f, 'utf8')
            .matchAll(/(?<![.\w])(?:process\.)?env\.([A-Z][A-Z0-9_]+)\b(?!\s*=[^=])/g),
        ].map((m) => `${path.relative(dir, f)}: ${m[1]}`),
      )
    expect(reads.filter((r) => !ALLOWED_READS.some((a) => r.startsWith(a)))).toEqual([])
  })
})

/**
 * Reads outside config.ts, each with its reason: the logger is made before any configuration
 * is; the chain's endpoint list is parsed beside the client that fails over between them.
 */
const ALLOWED_READS = ['lib/process-log.ts: LOG_', 'chain/chain.transport.ts: CHAIN_RPC_URL']
