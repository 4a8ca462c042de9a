import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isAlive } from '../lib/process.ts'
import { anvilRpc, launchAnvil, startAnvil, type LocalChain } from './anvil.ts'

const chains: LocalChain[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const chain of chains.splice(0)) await chain.stop()
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

function stateFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-anvil-state-'))
  dirs.push(dir)
  return path.join(dir, 'chain', 'state.json')
}

const blockNumber = async (url: string) => Number(await anvilRpc(url, 'eth_blockNumber'))
const pidOf = (file: string) =>
  Number(fs.readFileSync(path.join(path.dirname(file), 'anvil.pid'), 'utf8'))

describe('the local chain on a state file', () => {
  it('left running by a killed app, is stopped with its newest state, and the next chain is not fresh', async () => {
    const file = stateFile()
    const first = await launchAnvil({ stateFile: file })
    await first.ready
    expect(first.fresh).toBe(true)
    await anvilRpc(first.url, 'anvil_mine', ['0x3'])
    const stale = pidOf(file)
    // The app that started it is gone (nothing stops it), before its first periodic write.
    expect(fs.existsSync(file)).toBe(false)

    const next = await launchAnvil({ stateFile: file })
    chains.push(next)
    await next.ready
    expect(isAlive(stale)).toBe(false)
    expect(next.fresh).toBe(false)
    expect(await blockNumber(next.url)).toBe(3)
  })

  it('writes its log beside its state, a line for every call, and keeps answering', async () => {
    const file = stateFile()
    const chain = await startAnvil({ stateFile: file })
    chains.push(chain)
    for (let i = 0; i < 5; i++) await anvilRpc(chain.url, 'eth_chainId')
    const log = fs.readFileSync(path.join(path.dirname(file), 'anvil.log'), 'utf8')
    expect(log).toContain('Listening on')
    expect(log).toContain('eth_chainId')
    expect(isAlive(pidOf(file))).toBe(true)
  })
})
