import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { describe, expect, test } from 'vitest'
import { openSecret, parseSecretKey, sealSecret } from '../../lib/seal.ts'
import { KEY_FILE, loadSecretKey } from './operator.secret.ts'

describe('sealed authenticator secrets', () => {
  const key = randomBytes(32)
  const secret = randomBytes(20)

  test('open with the same key and operator only', () => {
    const sealed = sealSecret(key, 'alice', secret)
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(sealSecret(key, 'alice', secret)).not.toBe(sealed)
    expect(openSecret(key, 'alice', sealed)).toEqual(secret)
    expect(openSecret(key, 'bob', sealed)).toBeNull()
    expect(openSecret(randomBytes(32), 'alice', sealed)).toBeNull()
    const [v, iv, tag, data] = sealed.split('.')
    const flipped = Buffer.from(data!, 'base64url')
    flipped[0]! ^= 1
    expect(
      openSecret(key, 'alice', [v, iv, tag, flipped.toString('base64url')].join('.')),
    ).toBeNull()
    expect(openSecret(key, 'alice', 'JBSWY3DPEHPK3PXP')).toBeNull()
  })

  test('the key: OPERATOR_SECRET_KEY as hex or base64, else a key file made once', () => {
    expect(parseSecretKey('ab'.repeat(32), 'k')).toEqual(Buffer.alloc(32, 0xab))
    expect(parseSecretKey(Buffer.alloc(32, 7).toString('base64'), 'k')).toEqual(Buffer.alloc(32, 7))
    expect(() => parseSecretKey('short', 'OPERATOR_SECRET_KEY')).toThrow(/OPERATOR_SECRET_KEY/)

    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hope-key-')), 'data')
    try {
      const first = loadSecretKey({ operatorSecretKey: undefined, dataDir })
      expect(first).toHaveLength(32)
      expect(fs.statSync(path.join(dataDir, KEY_FILE)).mode & 0o777).toBe(0o600)
      expect(loadSecretKey({ operatorSecretKey: undefined, dataDir })).toEqual(first)
      expect(loadSecretKey({ operatorSecretKey: 'cd'.repeat(32), dataDir })).toEqual(
        Buffer.alloc(32, 0xcd),
      )
      fs.writeFileSync(path.join(dataDir, KEY_FILE), 'broken')
      expect(() => loadSecretKey({ operatorSecretKey: undefined, dataDir })).toThrow(/32 bytes/)
    } finally {
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true })
    }
  })

  test('processes making the key file at once all get the one key', async () => {
    const module = new URL('./operator.secret.ts', import.meta.url).href
    for (let round = 0; round < 10; round++) {
      const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hope-key-')), 'data')
      try {
        // Threads, so the loads really overlap; each reports the key it got, or its error.
        const keys = await Promise.all(
          Array.from(
            { length: 6 },
            () =>
              new Promise<string>((resolve) => {
                const worker = new Worker(
                  `const { parentPort, workerData } = require('node:worker_threads')
                   import(workerData.module).then((m) => {
                     try {
                       parentPort.postMessage(m.loadSecretKey({ dataDir: workerData.dataDir }).toString('hex'))
                     } catch (e) {
                       parentPort.postMessage(String(e))
                     }
                   })`,
                  { eval: true, workerData: { module, dataDir } },
                )
                worker.once('message', (m: string) => {
                  resolve(m)
                  void worker.terminate()
                })
              }),
          ),
        )
        expect(new Set(keys).size).toBe(1)
        expect(keys[0]).toMatch(/^[0-9a-f]{64}$/)
        expect(fs.readdirSync(dataDir)).toEqual([KEY_FILE])
      } finally {
        fs.rmSync(path.dirname(dataDir), { recursive: true, force: true })
      }
    }
  })
})
