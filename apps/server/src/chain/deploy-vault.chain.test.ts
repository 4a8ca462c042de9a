import fs from 'node:fs'
import path from 'node:path'
import { createPublicClient, http, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCommand, useKeyFile } from '../testing/cli.ts'
import { startAnvil, type LocalChain } from './anvil.ts'
import { devAddress, devKey, LOCAL_ROLES, prepareLocalChain } from './local-chain.ts'
import { PAYOUT_VAULT_ABI } from './payout-vault.ts'

const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/deploy-vault.ts')

// `npm run chain:deploy-vault` as an operator runs it on a real network: the deployer's key in a
// 0600 file, the owner and payer named, the caps in USDT.
describe('chain:deploy-vault', () => {
  let anvil: LocalChain
  let token: Address
  const { dir, keyFile } = useKeyFile('deployer', 5)

  beforeAll(async () => {
    anvil = await startAnvil()
    token = (await prepareLocalChain(anvil.url, undefined)).tokenAddress
  })
  afterAll(async () => {
    await anvil?.stop()
  })

  const deploy = (over: Record<string, string> = {}) => {
    const opts: Record<string, string> = {
      rpc: anvil.url,
      token,
      owner: devAddress(LOCAL_ROLES.vaultOwner),
      payer: devAddress(LOCAL_ROLES.hotWallet),
      'hourly-cap': '5000',
      'daily-cap': '20000',
      'key-file': keyFile,
      ...over,
    }
    return runCommand(SCRIPT, opts)
  }

  test('deploys the vault with its owner, payer and caps, and says which settings to make', async () => {
    const r = await deploy()
    expect(r.code, r.err).toBe(0)
    const address = /payoutVaultAddress = (0x[0-9a-fA-F]{40})/.exec(r.out)?.[1] as Address
    expect(r.out).toMatch(/payoutVaultDeployBlock = \d+/)
    const client = createPublicClient({ transport: http(anvil.url) })
    const read = (functionName: 'payer' | 'token') =>
      client.readContract({ address, abi: PAYOUT_VAULT_ABI, functionName })
    expect(await read('payer')).toBe(devAddress(LOCAL_ROLES.hotWallet))
    expect(await read('token')).toBe(token)
    const [hourLeft, dayLeft] = await client.readContract({
      address,
      abi: PAYOUT_VAULT_ABI,
      functionName: 'headroom',
    })
    expect([hourLeft, dayLeft]).toEqual([5_000_000_000n, 20_000_000_000n])
  })

  test('refuses a key file others can read, one key as owner and payer, and bad caps', async () => {
    const loose = path.join(dir, 'loose.key')
    fs.writeFileSync(loose, devKey(5), { mode: 0o644 })
    fs.chmodSync(loose, 0o644)
    const refusals = [
      await deploy({ 'key-file': loose }),
      await deploy({ owner: devAddress(LOCAL_ROLES.hotWallet) }),
      await deploy({ 'hourly-cap': '30000' }),
      await deploy({ 'daily-cap': '-1' }),
      await deploy({ token: 'usdt' }),
    ]
    for (const r of refusals) expect(r.code, r.out).not.toBe(0)
    expect(refusals[0]!.err).toMatch(/--key-file/)
    expect(refusals[1]!.err).toMatch(/different keys/)
    expect(refusals[2]!.err).toMatch(/hourly cap is above the daily cap/)
  })
})
