import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { SOURCE_DIR } from '../paths.ts'
import { LOCK_KEYS } from './lock-keys.ts'

/** Every .ts file under a folder, tests included. */
function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) sources(file, out)
    else if (entry.name.endsWith('.ts')) out.push(file)
  }
  return out
}

describe('advisory lock keys', () => {
  test('each lock has a first key of its own', () => {
    const keys = Object.values(LOCK_KEYS)
    expect(new Set(keys).size).toBe(keys.length)
  })

  test('no code takes a lock by a bare number: every key comes from the registry', () => {
    const bare = sources(SOURCE_DIR)
      .filter((file) => !file.endsWith('lock-keys.ts'))
      .flatMap((file) =>
        [
          ...fs
            .readFileSync(file, 'utf8')
            .matchAll(/\b70[0-9]{2}_?[0-9]{3}\b|\b7_0[0-9]{2}_[0-9]{3}\b/g),
        ]
          .filter((m) =>
            /lock/i.test(
              fs.readFileSync(file, 'utf8').slice(Math.max(0, m.index! - 120), m.index! + 40),
            ),
          )
          .map((m) => `${path.relative(SOURCE_DIR, file)}: ${m[0]}`),
      )
    expect(bare).toEqual([])
  })
})
