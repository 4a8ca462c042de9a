import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

// Secrets kept sealed at rest (AES-256-GCM) under a 32-byte key from a variable or a key file
// under DATA_DIR: operators' authenticator secrets, the proof-of-liabilities trees' secrets.
// The associated data binds a sealed value to its owner (an operator's name, a snapshot), so a
// sealed value copied elsewhere does not open.

const VERSION = 'v1'

/** Reads a 32-byte key from hex or base64 text; throws naming the variable otherwise. */
export function parseSecretKey(text: string, source: string): Buffer {
  const t = text.trim()
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64')
  if (key.length !== 32) throw new Error(`${source} must be 32 bytes as 64 hex digits or base64`)
  return key
}

/** A 32-byte key: `value` (from `variable`) when set, else `file` under `dataDir`, made once. */
export function loadKeyFile(opts: {
  value: string | undefined
  variable: string
  dataDir: string
  file: string
}): Buffer {
  if (opts.value) return parseSecretKey(opts.value, opts.variable)
  const file = path.join(opts.dataDir, opts.file)
  try {
    return parseSecretKey(fs.readFileSync(file, 'utf8'), file)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  }
  fs.mkdirSync(opts.dataDir, { recursive: true })
  // Of two processes starting at once, one makes the file and the other reads what it made. The
  // key is written in full under a name of its own, then linked into place: the link appears
  // with its content or fails with EEXIST, so no process ever reads a half-written file.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
  try {
    fs.writeFileSync(draft, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 })
    fs.linkSync(draft, file)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
  } finally {
    fs.rmSync(draft, { force: true })
  }
  return parseSecretKey(fs.readFileSync(file, 'utf8'), file)
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url), bound to `context`. */
export function sealSecret(key: Buffer, context: string, secret: Uint8Array): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(context))
  const data = Buffer.concat([cipher.update(secret), cipher.final()])
  return [VERSION, iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.')
}

/** The secret, or null when it was sealed with another key, for another context, or altered. */
export function openSecret(key: Buffer, context: string, sealed: string): Buffer | null {
  const [version, iv, tag, data] = sealed.split('.')
  if (version !== VERSION || !iv || !tag || data === undefined) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
    decipher.setAAD(Buffer.from(context))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()])
  } catch {
    return null
  }
}
