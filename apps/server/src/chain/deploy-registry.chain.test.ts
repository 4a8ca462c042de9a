import fs from 'node:fs'
import path from 'node:path'
import { porRegistryAbi } from '@hope/por-verify'
import { createPublicClient, http, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCommand, useKeyFile } from '../testing/cli.ts'
import { startAnvil, type LocalChain } from './anvil.ts'
import { devKey } from './local-chain.ts'

const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/deploy-registry.ts')

// `npm run chain:deploy-registry` as an operator runs it on a real network: the publisher's key
// in a 0600 file, the registry's rules given once.
describe('chain:deploy-registry', () => {
  let anvil: LocalChain
  const { dir, keyFile } = useKeyFile('publisher', 6)

  beforeAll(async () => {
    anvil = await startAnvil()
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  const deploy = (over: Record<string, string> = {}) => {
    const opts: Record<string, string> = {
      rpc: anvil.url,
      'min-interval-hours': '20',
      'max-block-age': '300',
      'check-window': '300',
      'key-file': keyFile,
      ...over,
    }
    return runCommand(SCRIPT, opts)
  }

  test('deploys the registry with its rules and the pinned code, and says which setting to make', async () => {
    const r = await deploy()
    expect(r.code, r.err).toBe(0)
    expect(r.out).toMatch(/its code hashes to 0x[0-9a-f]{64}, the hash @hope\/por-verify pins/)
    const address = /porRegistryAddress = (0x[0-9a-fA-F]{40})/.exec(r.out)?.[1] as Address
    const client = createPublicClient({ transport: http(anvil.url) })
    expect(
      await client.readContract({ address, abi: porRegistryAbi, functionName: 'rules' }),
    ).toEqual([72_000n, 300n, 300n])
  })

  test('refuses an interval under 20 hours, bad windows and a key file others can read', async () => {
    const loose = path.join(dir, 'loose.key')
    fs.writeFileSync(loose, devKey(6), { mode: 0o644 })
    fs.chmodSync(loose, 0o644)
    const refusals = [
      await deploy({ 'min-interval-hours': '1' }),
      await deploy({ 'max-block-age': '0' }),
      await deploy({ 'check-window': 'many' }),
      await deploy({ 'key-file': loose }),
    ]
    for (const r of refusals) expect(r.code, r.out).toBe(2)
    expect(refusals[0]!.err).toMatch(/at least 20: verifiers refuse/)
    expect(refusals[3]!.err).toMatch(/--key-file/)
  })
})
