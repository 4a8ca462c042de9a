import { describe, expect, test } from 'vitest'
import type { SettingsService } from '../modules/settings/settings.service.ts'
import { SETTING_DEFAULTS, type Settings } from '../modules/settings/settings.rules.ts'
import { connectChain, depositAddress } from './chain.service.ts'

const settingsOf = (changes: Partial<Settings>): SettingsService =>
  ({ get: async () => ({ ...SETTING_DEFAULTS, ...changes }) }) as unknown as SettingsService

const configured = {
  chainTokenAddress: `0x${'0e'.repeat(20)}`,
  chainDepositAddress: `0x${'0d'.repeat(20)}`,
}

describe('the recharge target', () => {
  const chain = connectChain('http://127.0.0.1:9', 56)

  test('describes the chain for a wallet that lacks it, from settings, never by the server RPC', async () => {
    const target = await depositAddress(
      chain,
      settingsOf({
        ...configured,
        chainName: 'BNB Smart Chain',
        chainPublicRpcUrl: 'https://bsc-dataseed.example',
        chainNativeSymbol: 'BNB',
        chainExplorerUrl: 'https://bscscan.example',
      }),
    )
    expect(target.chain).toEqual({
      name: 'BNB Smart Chain',
      rpcUrls: ['https://bsc-dataseed.example'],
      nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
      blockExplorerUrls: ['https://bscscan.example'],
    })
    expect(JSON.stringify(target)).not.toContain('127.0.0.1:9')
  })

  test('without a public RPC URL there is nothing to describe', async () => {
    expect((await depositAddress(chain, settingsOf(configured))).chain).toBeNull()
  })
})
