import fs from 'node:fs'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { devKey, LOCAL_ROLES } from '../../apps/server/src/chain/local-chain.ts'
import { HopeServer, waitFor } from './support/server.ts'

// The app as `npm start` runs it with WEB_CONCURRENCY=2: no process of its tree has a private
// key or a key's name in its environment (which /proc keeps for a process's whole life), the
// signer connects to PostgreSQL as hope_signer and the workers as hope_app. A key given the
// old way, or in a file other users may read, stops the start.

let server: HopeServer
let pool: pg.Pool

beforeAll(async () => {
  server = await HopeServer.create()
  await server.start({ WEB_CONCURRENCY: '2' })
  pool = server.openPool()
})

afterAll(async () => {
  await pool?.end()
  await server?.dispose()
})

/** The processes descending from `root` (itself included), from every /proc/<pid>/stat. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>()
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat: string
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue // gone meanwhile
    }
    // pid (comm) state ppid …: comm may hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    children.set(ppid, [...(children.get(ppid) ?? []), Number(name)])
  }
  const tree: number[] = []
  const visit = (pid: number) => {
    tree.push(pid)
    for (const child of children.get(pid) ?? []) visit(child)
  }
  visit(root)
  return tree
}

/** A process's environment as the kernel holds it (what it was started with). */
function environOf(pid: number): string[] | null {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')
  } catch {
    return null
  }
}

const commandOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
  } catch {
    return ''
  }
}

test('no process of the app holds a private key or a key variable in its environment', async () => {
  const tree = processTree(server.pid!)
  const node = tree.filter((pid) => commandOf(pid).includes('server.ts'))
  // The primary, two workers and the signer, besides PostgreSQL and Anvil.
  expect(node.length).toBeGreaterThanOrEqual(4)
  const keys = [devKey(LOCAL_ROLES.hotWallet), devKey(LOCAL_ROLES.deployer)].map((k) =>
    k.slice(2).toLowerCase(),
  )
  let read = 0
  for (const pid of tree) {
    const env = environOf(pid)
    if (!env) continue
    read += 1
    const text = env.join('\n').toLowerCase()
    for (const key of keys) expect(text, commandOf(pid)).not.toContain(key)
    expect(
      env.filter((line) => /^(HOT_WALLET_KEY|POR_PUBLISHER_KEY|SIGNER_TOKEN)=/.test(line)),
      commandOf(pid),
    ).toEqual([])
  }
  expect(read).toBeGreaterThanOrEqual(node.length)
  // Nor do the workers learn where the key files are or the signer's database credentials.
  const signer = node.filter((pid) => environOf(pid)?.includes('HOPE_ROLE=signer'))
  expect(signer).toHaveLength(1)
  const workers = node.filter((pid) => environOf(pid)?.some((l) => l.startsWith('SIGNER_URL=')))
  expect(workers).toHaveLength(2)
  for (const pid of [...workers, ...signer]) {
    const env = environOf(pid)!
    expect(
      env.filter((l) =>
        /^(HOT_WALLET_KEY_FILE|POR_PUBLISHER_KEY_FILE|SIGNER_DATABASE_URL)=./.test(l),
      ),
    ).toEqual([])
    expect(env.filter((l) => l.startsWith('DATABASE_URL=') && !l.includes('//hope_app:'))).toEqual(
      [],
    )
  }
})

test('the signer connects as hope_signer and the workers as hope_app', async () => {
  const tree = processTree(server.pid!)
  const signer = tree.find((pid) => environOf(pid)?.includes('HOPE_ROLE=signer'))!
  const workers = tree.filter((pid) => environOf(pid)?.some((l) => l.startsWith('SIGNER_URL=')))
  expect(workers).toHaveLength(2)
  const sessions = () =>
    pool
      .query<{ user: string; name: string }>(
        `SELECT usename AS user, application_name AS name FROM pg_stat_activity
         WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      )
      .then((r) => r.rows)
  // Requests go round the workers; a worker's unused connections close after a while, so ask
  // until each has one open.
  const seen = await waitFor('a connection of the signer and of each worker', async () => {
    await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${server.baseUrl}/api/main/getETLDPrice`, { method: 'POST' }).catch(() => null),
      ),
    )
    const rows = await sessions()
    const names = new Set(rows.map((r) => r.name))
    const all = [`hope-signer ${signer}`, ...workers.map((pid) => `hope-app ${pid}`)]
    return all.every((name) => names.has(name)) ? rows : null
  })
  for (const row of seen) {
    if (row.name.startsWith('hope-signer ')) expect(row.user).toBe('hope_signer')
    if (row.name.startsWith('hope-app ') || row.name === 'hope-chat-listener')
      expect(row.user).toBe('hope_app')
  }
  // Only the primary's own connections (backups, archiving) and this test's are the owner's.
  expect(seen.filter((r) => r.user === 'postgres' && r.name.startsWith('hope-'))).toEqual([])
})

test('a key in the environment, or in a file others may read, stops the start', async () => {
  const other = await HopeServer.create()
  try {
    const inEnv = await other.runUntilExit(
      { HOT_WALLET_KEY: devKey(LOCAL_ROLES.hotWallet) },
      60_000,
    )
    expect(inEnv.code).not.toBe(0)
    expect(inEnv.output).toContain('HOT_WALLET_KEY_FILE')
    expect(inEnv.output.toLowerCase()).not.toContain(devKey(LOCAL_ROLES.hotWallet).slice(2))
    const file = path.join(other.dataDir, 'hot-wallet.key')
    fs.writeFileSync(file, devKey(LOCAL_ROLES.hotWallet))
    fs.chmodSync(file, 0o644)
    for (const concurrency of ['1', '2']) {
      const open = await other.runUntilExit(
        { HOT_WALLET_KEY_FILE: file, WEB_CONCURRENCY: concurrency },
        60_000,
      )
      expect(open.code).not.toBe(0)
      expect(open.output).toContain(`chmod 600 ${file}`)
    }
  } finally {
    await other.dispose()
  }
})
