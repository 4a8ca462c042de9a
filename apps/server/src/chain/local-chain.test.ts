import { mnemonicToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { DEV_MNEMONIC, devAccount, devAddress, devKey } from './local-chain.ts'

describe('development accounts', () => {
  it('derive from the stored seed the accounts of Anvil’s mnemonic', () => {
    for (const index of [0, 1, 2, 9]) {
      const fromMnemonic = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index })
      expect(devAccount(index).address).toBe(fromMnemonic.address)
      expect(devKey(index)).toBe(
        `0x${Buffer.from(fromMnemonic.getHdKey().privateKey!).toString('hex')}`,
      )
    }
    // The stored accounts are those the seed derives.
    for (let index = 0; index < 12; index++) {
      const fromMnemonic = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index })
      expect(devAddress(index)).toBe(fromMnemonic.address)
      expect(devKey(index)).toBe(
        `0x${Buffer.from(fromMnemonic.getHdKey().privateKey!).toString('hex')}`,
      )
    }
    // Anvil's first account, as it prints it.
    expect(devAccount(0).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  })
})
