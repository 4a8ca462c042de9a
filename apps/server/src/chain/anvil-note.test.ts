import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  lastLocalChainPort,
  localChainNote,
  runningLocalChain,
  writeLocalChainNote,
} from './anvil.ts'

const dirs: string[] = []
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-note-'))
  fs.mkdirSync(path.join(dir, 'chain'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

describe('the local chain note', () => {
  it('gives the last port and, while its app runs, the URL', () => {
    const dir = dataDir()
    writeLocalChainNote(dir, 'http://127.0.0.1:41234')
    expect(lastLocalChainPort(dir)).toBe(41234)
    expect(runningLocalChain(dir)).toBe('http://127.0.0.1:41234')
  })

  it('keeps the port of a chain whose app has gone, but not its URL', () => {
    const dir = dataDir()
    // A process id no process has: the app that wrote the note is gone.
    fs.writeFileSync(
      localChainNote(dir),
      JSON.stringify({ url: 'http://127.0.0.1:41235', pid: 2 ** 22 + 1 }),
    )
    expect(lastLocalChainPort(dir)).toBe(41235)
    expect(runningLocalChain(dir)).toBeNull()
  })

  it('is absent when there is no note or it cannot be read', () => {
    const dir = dataDir()
    expect(lastLocalChainPort(dir)).toBeUndefined()
    expect(runningLocalChain(dir)).toBeNull()
    fs.writeFileSync(localChainNote(dir), '{"url": "not a url"')
    expect(lastLocalChainPort(dir)).toBeUndefined()
    expect(runningLocalChain(dir)).toBeNull()
    fs.writeFileSync(localChainNote(dir), JSON.stringify({ url: 'not a url', pid: process.pid }))
    expect(lastLocalChainPort(dir)).toBeUndefined()
  })
})
