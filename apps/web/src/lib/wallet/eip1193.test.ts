import { describe, expect, test, vi } from 'vitest'
import { createFakeWallet } from '../../test/fake-wallet.ts'
import {
  PREFERRED_ACCOUNT_KEY,
  pickAddress,
  requestAddress,
  setPreferredAccount,
  watchWallet,
} from './eip1193.ts'

const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const B = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

describe('wallet reader', () => {
  test('asks for accounts only when none are connected; 4001 is logged as the spec says', async () => {
    const wallet = createFakeWallet()
    wallet.connected = false
    await expect(requestAddress(wallet)).resolves.toBe(wallet.address.toLowerCase())
    expect(wallet.calls).toEqual(['eth_accounts', 'eth_requestAccounts'])

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const refusing = {
      request: vi.fn().mockRejectedValue(Object.assign(new Error('no'), { code: 4001 })),
    }
    await expect(requestAddress(refusing)).resolves.toBeNull()
    expect(warn).toHaveBeenCalledWith('Please connect to MetaMask')
  })

  test('reloads only when the account or chain really changes', () => {
    const wallet = createFakeWallet()
    const onSwitch = vi.fn()
    const onClose = vi.fn()
    const address = wallet.address.toLowerCase()
    watchWallet(wallet, { address, chainId: '0x1' }, { onSwitch, onClose })
    wallet.emit('accountsChanged', [wallet.address])
    wallet.emit('chainChanged', '0x1')
    wallet.emit('chainChanged', 1)
    expect(onSwitch).not.toHaveBeenCalled()
    wallet.emit('chainChanged', '0x38')
    expect(onSwitch).toHaveBeenCalledTimes(1)
    wallet.emit('accountsChanged', ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8'])
    expect(onSwitch).toHaveBeenCalledTimes(2)
    expect(onClose).not.toHaveBeenCalled()
  })

  test('an empty account list or disconnect closes the wallet', () => {
    const wallet = createFakeWallet()
    const onSwitch = vi.fn()
    const onClose = vi.fn()
    const stop = watchWallet(
      wallet,
      { address: wallet.address, chainId: '0x1' },
      { onSwitch, onClose },
    )
    wallet.emit('accountsChanged', [])
    wallet.emit('disconnect', { code: 4900 })
    expect(onClose).toHaveBeenCalledTimes(2)
    expect(onSwitch).not.toHaveBeenCalled()
    stop()
    wallet.emit('accountsChanged', [])
    expect(onClose).toHaveBeenCalledTimes(2)
  })

  test('the address chosen for login wins while the wallet still exposes it, else the first', () => {
    expect(pickAddress([A, B], null)).toBe(A)
    expect(pickAddress([A.toUpperCase().replace('0X', '0x'), B], B)).toBe(B)
    expect(pickAddress([A], B)).toBe(A)
    expect(pickAddress(['nonsense', B], null)).toBe(B)
    expect(pickAddress('0x', null)).toBeNull()
  })

  test('a chosen address is remembered, and another order of the same accounts does not reload', () => {
    setPreferredAccount(B.toUpperCase().replace('0X', '0x'))
    expect(window.localStorage.getItem(PREFERRED_ACCOUNT_KEY)).toBe(B)
    const wallet = createFakeWallet()
    const onSwitch = vi.fn()
    watchWallet(wallet, { address: B, chainId: '0x1' }, { onSwitch, onClose: vi.fn() })
    wallet.emit('accountsChanged', [A, B])
    wallet.emit('accountsChanged', [B, A])
    expect(onSwitch).not.toHaveBeenCalled()
    wallet.emit('accountsChanged', [A])
    expect(onSwitch).toHaveBeenCalledTimes(1)
    setPreferredAccount(null)
    expect(window.localStorage.getItem(PREFERRED_ACCOUNT_KEY)).toBeNull()
  })
})
