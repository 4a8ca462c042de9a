import { afterEach, describe, expect, test, vi } from 'vitest'
import { createFakeWallet, installWallet, TEST_KEYS } from '../../test/fake-wallet.ts'
import { injectedProvider, setActiveProvider, type Eip1193Provider } from './eip1193.ts'
import {
  findWallets,
  pickWallet,
  rememberWallet,
  watchWallets,
  type WalletInfo,
} from './discover.ts'

function infoOf(name: string): WalletInfo {
  return { uuid: `${name}-uuid`, name, icon: 'data:image/svg+xml,<svg/>', rdns: `app.${name}` }
}

/** A wallet that only answers EIP-6963 requests (no window.ethereum), as some extensions do. */
function announceOnRequest(info: WalletInfo, provider: Eip1193Provider): () => void {
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    )
  window.addEventListener('eip6963:requestProvider', announce)
  return () => window.removeEventListener('eip6963:requestProvider', announce)
}

describe('wallet discovery', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => {
    cleanups.splice(0).forEach((fn) => fn())
    installWallet(undefined)
    setActiveProvider(null)
    vi.useRealTimers()
  })

  test('finds a wallet that only announces itself through EIP-6963, at once', async () => {
    installWallet(undefined)
    const wallet = createFakeWallet()
    cleanups.push(announceOnRequest(infoOf('solo'), wallet))
    const found = await findWallets()
    expect(found).toHaveLength(1)
    expect(found[0]?.provider).toBe(wallet)
    expect(found[0]?.info?.name).toBe('solo')
    expect(pickWallet(found)?.provider).toBe(wallet)
    // Once the guard makes it the active one, every wallet call goes to it.
    setActiveProvider(wallet)
    expect(injectedProvider()).toBe(wallet)
  })

  test('waits for a late wallet announced by ethereum#initialized', async () => {
    vi.useFakeTimers()
    installWallet(undefined)
    const done = vi.fn()
    void findWallets().then(done)
    await vi.advanceTimersByTimeAsync(50)
    const wallet = createFakeWallet()
    installWallet(wallet)
    window.dispatchEvent(new Event('ethereum#initialized'))
    await vi.advanceTimersByTimeAsync(200)
    expect(done).toHaveBeenCalledWith([{ provider: wallet, info: null }])
  })

  test('gives up after 1.5 s without a wallet', async () => {
    vi.useFakeTimers()
    installWallet(undefined)
    const done = vi.fn()
    void findWallets().then(done)
    await vi.advanceTimersByTimeAsync(1499)
    expect(done).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(done).toHaveBeenCalledWith([])
  })

  test('keeps listening after the wait: a wallet injected later still arrives', async () => {
    vi.useFakeTimers()
    installWallet(undefined)
    const seen = vi.fn()
    cleanups.push(watchWallets(seen))
    await vi.advanceTimersByTimeAsync(5000)
    expect(seen).not.toHaveBeenCalled()
    const wallet = createFakeWallet()
    installWallet(wallet)
    window.dispatchEvent(new Event('ethereum#initialized'))
    expect(seen).toHaveBeenLastCalledWith([{ provider: wallet, info: null }])
  })

  test('several announcers are all listed, and the user must pick until one is remembered', async () => {
    const first = createFakeWallet()
    const second = createFakeWallet(TEST_KEYS.bob)
    installWallet(first)
    cleanups.push(announceOnRequest(infoOf('one'), first))
    cleanups.push(announceOnRequest(infoOf('two'), second))
    // The same wallet announcing twice counts once.
    cleanups.push(announceOnRequest(infoOf('two'), second))
    const found = await findWallets()
    expect(found.map((w) => w.info?.name)).toEqual(['one', 'two'])
    expect(pickWallet(found)).toBeNull()
    rememberWallet(found[1]!)
    expect(pickWallet(found)?.provider).toBe(second)
  })

  test('a late announcer lets others answer before the list is given', async () => {
    vi.useFakeTimers()
    installWallet(undefined)
    const done = vi.fn()
    void findWallets().then(done)
    await vi.advanceTimersByTimeAsync(300)
    const a = createFakeWallet()
    const b = createFakeWallet(TEST_KEYS.bob)
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: { info: infoOf('a'), provider: a } }),
    )
    await vi.advanceTimersByTimeAsync(50)
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: { info: infoOf('b'), provider: b } }),
    )
    expect(done).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(200)
    expect(done.mock.calls[0]?.[0]).toHaveLength(2)
  })
})
