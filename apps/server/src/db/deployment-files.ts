// What a deployment keeps beside its database under DATA_DIR, carried by each base backup in
// its folder `files/`: the operator key and the proof seal key (encrypted with BACKUP_KEY),
// the uploads, and the local chain's state. A restore of a lost disk puts them back, so that
// operators sign in, sealed proofs open, images show and the local chain's contracts pay.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { isAlive } from '../lib/process.ts'

/** The folder of a base backup holding the deployment's files (left out of the data directory). */
export const FILES_DIR = 'files'
/** The key files under DATA_DIR (operator.secret.ts's KEY_FILE, por.seal.ts's SEAL_KEY_FILE). */
export const KEY_FILES = ['operator-secret.key', 'por-seal.key'] as const
const KEYS = 'keys.enc'
const MANIFEST = 'files.json'
const CHAIN_STATE = 'chain-state.json'
/** Binds the ciphertext to its use: a sealed thing of another kind does not open as keys. */
const AAD = Buffer.from('hope backup keys v1')

export interface FilesManifest {
  /** The key files in `keys.enc`; empty when none existed, null when there was no BACKUP_KEY. */
  keys: string[] | null
  uploads: number
  chainState: boolean
}

const uploadsOf = (dataDir: string) => path.join(dataDir, 'uploads')
const chainStateOf = (dataDir: string) => path.join(dataDir, 'chain', 'state.json')

function seal(key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(AAD)
  const body = Buffer.concat([cipher.update(plain), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body])
}

function unseal(key: Buffer, sealed: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12))
  decipher.setAAD(AAD)
  decipher.setAuthTag(sealed.subarray(12, 28))
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()])
}

/** Files under `dir`, counted. */
function countFiles(dir: string): number {
  if (!fs.existsSync(dir)) return 0
  let n = 0
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n++
  return n
}

/**
 * The local chain's state file as Anvil last wrote it (it rewrites it every few seconds: a copy
 * caught mid-write is read again), or null without one.
 */
async function readChainState(dataDir: string): Promise<Buffer | null> {
  const file = chainStateOf(dataDir)
  for (let attempt = 0; ; attempt++) {
    if (!fs.existsSync(file)) return null
    const bytes = fs.readFileSync(file)
    try {
      JSON.parse(bytes.toString('utf8'))
      return bytes
    } catch (e) {
      if (attempt >= 20) throw new Error(`${file} does not hold a chain state`, { cause: e })
      await new Promise((r) => setTimeout(r, 250))
    }
  }
}

/**
 * Copies the deployment's files from `dataDir` into `into`/files: the keys sealed with
 * `backupKey` (left out without one), the uploads, the local chain's state.
 */
export async function backupDeploymentFiles(opts: {
  dataDir: string
  into: string
  backupKey: Buffer | undefined
}): Promise<FilesManifest> {
  const dir = path.join(opts.into, FILES_DIR)
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  let keys: string[] | null = null
  if (opts.backupKey) {
    const found: Record<string, string> = {}
    for (const name of KEY_FILES) {
      const file = path.join(opts.dataDir, name)
      if (fs.existsSync(file)) found[name] = fs.readFileSync(file).toString('base64')
    }
    keys = Object.keys(found)
    fs.writeFileSync(
      path.join(dir, KEYS),
      seal(opts.backupKey, Buffer.from(JSON.stringify(found))),
      { mode: 0o600 },
    )
  }
  if (fs.existsSync(uploadsOf(opts.dataDir)))
    fs.cpSync(uploadsOf(opts.dataDir), path.join(dir, 'uploads'), { recursive: true })
  const chain = await readChainState(opts.dataDir)
  if (chain) fs.writeFileSync(path.join(dir, CHAIN_STATE), chain, { mode: 0o600 })
  const manifest: FilesManifest = {
    keys,
    uploads: countFiles(path.join(dir, 'uploads')),
    chainState: chain !== null,
  }
  fs.writeFileSync(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`)
  return manifest
}

/** What a base backup's files folder holds, or null for a backup taken without one. */
export function readFilesManifest(backupDir: string): FilesManifest | null {
  const file = path.join(backupDir, FILES_DIR, MANIFEST)
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as FilesManifest) : null
}

/** What a restore puts back beside the database, read and checked before anything moves. */
export interface FilesPlan {
  keys: Map<string, Buffer>
  /** The base backups' folders whose uploads are merged in, newest first. */
  uploadsFrom: string[]
  /** The newest local chain state among the backups, if any. */
  chainState: Buffer | null
  /** What the restore will not bring back, for the operator. */
  missing: string[]
}

/**
 * Reads what `chosen` (the base backup the database comes from) and the other backups give:
 * the keys from `chosen`, opened with `backupKey` (refused without it or with another key);
 * the uploads of every backup (a file once uploaded is never changed, so an upload made after
 * `chosen` and before the moment restored is in a later backup); the chain's state from the
 * newest backup, since the chain is not rolled back with the books (what was paid on it stays
 * paid, and the app learns it from the chain). Checks `dataDir`: a running local chain is
 * refused, and so are keys that differ from the backup's without `replace`.
 */
export function planFilesRestore(opts: {
  dataDir: string
  chosen: string
  all: readonly string[]
  backupKey: Buffer | undefined
  replace: boolean
}): FilesPlan {
  const missing: string[] = []
  const manifest = readFilesManifest(opts.chosen)
  const keys = new Map<string, Buffer>()
  if (!manifest) missing.push('the keys, uploads and chain state (a backup older than this app)')
  else if (manifest.keys === null)
    missing.push(
      `the keys (${KEY_FILES.join(', ')}): the backup was taken without BACKUP_KEY; copy them back yourself`,
    )
  else {
    if (!opts.backupKey)
      throw new Error(
        'This backup holds the keys encrypted with BACKUP_KEY: set BACKUP_KEY to the key the backups were taken with.',
      )
    let plain: Buffer
    try {
      plain = unseal(opts.backupKey, fs.readFileSync(path.join(opts.chosen, FILES_DIR, KEYS)))
    } catch (e) {
      throw new Error(
        'BACKUP_KEY does not open the keys of this backup: is it the one it was taken with?',
        {
          cause: e,
        },
      )
    }
    for (const [name, b64] of Object.entries(
      JSON.parse(plain.toString('utf8')) as Record<string, string>,
    ))
      if ((KEY_FILES as readonly string[]).includes(name))
        keys.set(name, Buffer.from(b64, 'base64'))
  }
  const newestFirst = [...opts.all].reverse()
  const uploadsFrom = newestFirst.filter((b) => fs.existsSync(path.join(b, FILES_DIR, 'uploads')))
  const withChain = newestFirst.find((b) => fs.existsSync(path.join(b, FILES_DIR, CHAIN_STATE)))
  const chainState = withChain
    ? fs.readFileSync(path.join(withChain, FILES_DIR, CHAIN_STATE))
    : null

  const pidFile = path.join(opts.dataDir, 'chain', 'anvil.pid')
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim())
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid))
      throw new Error(
        `A local chain (process ${pid}) is running on ${path.join(opts.dataDir, 'chain')}: stop the app first.`,
      )
  }
  if (!opts.replace) {
    const differs = [
      ...[...keys]
        .filter(([name, bytes]) => {
          const file = path.join(opts.dataDir, name)
          return fs.existsSync(file) && !fs.readFileSync(file).equals(bytes)
        })
        .map(([name]) => name),
    ]
    if (differs.length)
      throw new Error(
        `${opts.dataDir} has its own ${differs.join(', ')}: restore into a new DATA_DIR, or add --replace to move it aside.`,
      )
  }
  return { keys, uploadsFrom, chainState, missing }
}

/**
 * Puts the planned files into `dataDir`: keys (mode 600), an existing different one moved aside
 * with the suffix `.before-restore-<stamp>`; the chain's state where there is none; uploads
 * merged in.
 * What it did, one line each.
 */
export function restoreFiles(dataDir: string, plan: FilesPlan, stamp: string): string[] {
  const done: string[] = []
  fs.mkdirSync(dataDir, { recursive: true })
  const put = (file: string, bytes: Buffer) => {
    if (fs.existsSync(file)) {
      if (fs.readFileSync(file).equals(bytes)) return false
      fs.renameSync(file, `${file}.before-restore-${stamp}`)
    }
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(`${file}.restoring`, bytes, { mode: 0o600 })
    fs.renameSync(`${file}.restoring`, file)
    return true
  }
  for (const [name, bytes] of plan.keys)
    if (put(path.join(dataDir, name), bytes)) done.push(`key ${name}`)
  // A chain is never rolled back: a DATA_DIR that still has its chain keeps it (what was paid
  // stays paid, and the app learns it from the chain); only a lost one comes from the backup.
  if (
    plan.chainState &&
    !fs.existsSync(chainStateOf(dataDir)) &&
    put(chainStateOf(dataDir), plan.chainState)
  )
    done.push('the local chain state (from the newest backup)')
  const uploads = uploadsOf(dataDir)
  const before = countFiles(uploads)
  for (const from of plan.uploadsFrom)
    fs.cpSync(path.join(from, FILES_DIR, 'uploads'), uploads, {
      recursive: true,
      force: false,
      errorOnExist: false,
    })
  const added = countFiles(uploads) - before
  if (added) done.push(`${added} uploaded file(s)`)
  return done
}
