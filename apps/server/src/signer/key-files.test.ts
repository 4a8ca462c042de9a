import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { loadConfig, readKeyFile } from '../config.ts'

// The signer's keys come from files only their owner can read, never from the environment.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-keys-'))
const KEY = `0x${'4c'.repeat(32)}`

function keyFile(name: string, content: string, mode: number): string {
  const file = path.join(dir, name)
  fs.writeFileSync(file, content)
  fs.chmodSync(file, mode)
  return file
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

test('a key in the environment stops the start, naming the file variable to use instead', () => {
  expect(() => loadConfig({ HOT_WALLET_KEY: KEY })).toThrow(/HOT_WALLET_KEY_FILE/)
  expect(() => loadConfig({ POR_PUBLISHER_KEY: KEY })).toThrow(/POR_PUBLISHER_KEY_FILE/)
  // Its value never appears in the message.
  expect(() => loadConfig({ HOT_WALLET_KEY: KEY })).not.toThrow(KEY.slice(2))
  // Set empty (cleared by a parent) is unset.
  expect(() => loadConfig({ HOT_WALLET_KEY: '', POR_PUBLISHER_KEY: '' })).not.toThrow()
})

test('a key file other users may read is refused at start and when read', () => {
  const open = keyFile('open.key', KEY, 0o644)
  expect(() => loadConfig({ HOT_WALLET_KEY_FILE: open })).toThrow(/mode 0644.*chmod 600/)
  expect(() => loadConfig({ POR_PUBLISHER_KEY_FILE: open })).toThrow(/POR_PUBLISHER_KEY_FILE/)
  expect(() => readKeyFile(open, 'HOT_WALLET_KEY_FILE')).toThrow(/chmod 600/)
  const groupReadable = keyFile('group.key', KEY, 0o640)
  expect(() => loadConfig({ HOT_WALLET_KEY_FILE: groupReadable })).toThrow(/mode 0640/)
  expect(() => loadConfig({ HOT_WALLET_KEY_FILE: path.join(dir, 'absent.key') })).toThrow(/ENOENT/)
})

test('a private key file is read, with or without 0x and a trailing newline', () => {
  const plain = keyFile('plain.key', `${KEY.slice(2).toUpperCase()}\n`, 0o600)
  const prefixed = keyFile('prefixed.key', KEY, 0o400)
  expect(loadConfig({ HOT_WALLET_KEY_FILE: plain }).keyFiles.hotWallet).toBe(plain)
  expect(readKeyFile(plain, 'HOT_WALLET_KEY_FILE')).toBe(KEY)
  expect(readKeyFile(prefixed, 'POR_PUBLISHER_KEY_FILE')).toBe(KEY)
  const notAKey = keyFile('not-a-key.key', 'hello', 0o600)
  expect(() => readKeyFile(notAKey, 'HOT_WALLET_KEY_FILE')).toThrow(/does not hold a private key/)
})
