import { describe, expect, test, vi } from 'vitest'
import { createFakeChainWallet, rpcError } from '../../test/fake-chain-wallet.ts'
import { watchWallet } from './eip1193.ts'
import {
  SWITCH_TIMEOUT_MS,
  SwitchChainError,
  WAITING_NOTICE_MS,
  chainAdder,
  switchChain,
} from './switch-chain.ts'

const BSC = 56
const BSC_HEX = '0x38'

/** A wallet on Ethereum that knows only Ethereum. */
const onEthereum = () => createFakeChainWallet({ chainId: '0x1' })
const methods = (wallet: ReturnType<typeof createFakeChainWallet>) =>
  wallet.calls.map((call) => call.method).filter((m) => m !== 'eth_chainId')

async function failure(promise: Promise<unknown>): Promise<SwitchChainError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SwitchChainError)
  return error as SwitchChainError
}

describe('chain switch', () => {
  test('nothing to ask when the wallet is on the chain already', async () => {
    const wallet = createFakeChainWallet({ chainId: BSC_HEX })
    await switchChain(wallet, BSC)
    expect(methods(wallet)).toEqual([])
  })

  test('a known chain is switched to', async () => {
    const wallet = onEthereum()
    wallet.chains.add(BSC_HEX)
    await switchChain(wallet, BSC)
    expect(wallet.chainId).toBe(BSC_HEX)
    expect(wallet.callsTo('wallet_switchEthereumChain')[0]?.params).toEqual([{ chainId: BSC_HEX }])
    expect(methods(wallet)).toEqual(['wallet_switchEthereumChain'])
  })

  test('4902: the chain is added, then switched to', async () => {
    const wallet = onEthereum()
    await switchChain(wallet, BSC)
    expect(methods(wallet)).toEqual([
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_switchEthereumChain',
    ])
    expect(wallet.callsTo('wallet_addEthereumChain')[0]?.params[0]).toMatchObject({
      chainId: BSC_HEX,
      chainName: 'BNB Smart Chain',
      nativeCurrency: { symbol: 'BNB', decimals: 18 },
      rpcUrls: [expect.stringMatching(/^https:\/\//)],
    })
    expect(wallet.chainId).toBe(BSC_HEX)
  })

  test('-32603 wrapping 4902 (MetaMask Mobile) is a chain to add too', async () => {
    const wallet = onEthereum()
    let first = true
    wallet.onSwitch = (target) => {
      if (first) {
        first = false
        throw rpcError(-32603, 'Internal JSON-RPC error.', { originalError: { code: 4902 } })
      }
      wallet.chainId = target
      return null
    }
    await switchChain(wallet, BSC)
    expect(methods(wallet)).toEqual([
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_switchEthereumChain',
    ])
    expect(wallet.chainId).toBe(BSC_HEX)
  })

  test('another -32603 is the wallet failing, not a chain to add', async () => {
    const wallet = onEthereum()
    wallet.onSwitch = () => {
      throw rpcError(-32603, 'Internal JSON-RPC error.')
    }
    const error = await failure(switchChain(wallet, BSC))
    expect(error.failure).toBe('wallet')
    expect(error.message).toBe('Internal JSON-RPC error.')
    expect(methods(wallet)).toEqual(['wallet_switchEthereumChain'])
  })

  test('the user declining (4001) fails as rejected, with the reason', async () => {
    const wallet = onEthereum()
    wallet.onSwitch = () => {
      throw rpcError(4001, 'User rejected the request.')
    }
    const error = await failure(switchChain(wallet, BSC))
    expect(error.failure).toBe('rejected')
    expect(error.message).toBe('User rejected the request.')
    expect(wallet.chainId).toBe('0x1')
  })

  test('a chain the app cannot describe is not added', async () => {
    const wallet = onEthereum()
    const error = await failure(switchChain(wallet, 31337, { addChain: async () => null }))
    expect(error.failure).toBe('unknownChain')
    expect(methods(wallet)).toEqual(['wallet_switchEthereumChain'])
  })

  test('a switch that never answers is read back with eth_chainId after 30 s', async () => {
    vi.useFakeTimers()
    const wallet = onEthereum()
    // The wallet switches but its answer never comes back.
    wallet.onSwitch = (target) => {
      wallet.chainId = target
      return new Promise(() => {})
    }
    const done = vi.fn()
    void switchChain(wallet, BSC).then(done)
    await vi.advanceTimersByTimeAsync(SWITCH_TIMEOUT_MS - 1)
    expect(done).not.toHaveBeenCalled()
    const reads = wallet.callsTo('eth_chainId').length
    await vi.advanceTimersByTimeAsync(1)
    expect(done).toHaveBeenCalled()
    expect(wallet.callsTo('eth_chainId').length).toBeGreaterThan(reads)
  })

  test('a wallet slow to answer shows that the app waits on it, until it answers', async () => {
    vi.useFakeTimers()
    const wallet = onEthereum()
    let answer: (value: null) => void = () => {}
    wallet.onSwitch = (target) => {
      wallet.chainId = target
      return new Promise((resolve) => (answer = resolve))
    }
    const ended = vi.fn()
    const onWaiting = vi.fn(() => ended)
    const done = vi.fn()
    void switchChain(wallet, BSC, { onWaiting }).then(done)
    await vi.advanceTimersByTimeAsync(WAITING_NOTICE_MS - 1)
    expect(onWaiting).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(onWaiting).toHaveBeenCalledTimes(1)
    expect(ended).not.toHaveBeenCalled()
    answer(null)
    await vi.advanceTimersByTimeAsync(0)
    expect(done).toHaveBeenCalled()
    expect(ended).toHaveBeenCalledTimes(1)
  })

  test('a silent wallet still on the old chain fails as no answer', async () => {
    vi.useFakeTimers()
    const wallet = onEthereum()
    wallet.onSwitch = () => new Promise(() => {})
    const outcome = switchChain(wallet, BSC).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(SWITCH_TIMEOUT_MS)
    const error = await outcome
    expect(error).toBeInstanceOf(SwitchChainError)
    expect((error as SwitchChainError).failure).toBe('noAnswer')
  })

  test("the app's own switch does not reload the page; the user's next one does", async () => {
    const wallet = onEthereum()
    wallet.chains.add(BSC_HEX)
    const onSwitch = vi.fn()
    watchWallet(wallet, { address: wallet.address, chainId: '0x1' }, { onSwitch, onClose: vi.fn() })
    await switchChain(wallet, BSC)
    expect(onSwitch).not.toHaveBeenCalled()
    wallet.emit('chainChanged', '0x1')
    expect(onSwitch).toHaveBeenCalledTimes(1)
  })

  test('a failed switch leaves no exception for a later change by the user', async () => {
    const wallet = onEthereum()
    wallet.onSwitch = () => {
      throw rpcError(4001, 'User rejected the request.')
    }
    const onSwitch = vi.fn()
    watchWallet(wallet, { address: wallet.address, chainId: '0x1' }, { onSwitch, onClose: vi.fn() })
    await failure(switchChain(wallet, BSC))
    wallet.emit('chainChanged', BSC_HEX)
    expect(onSwitch).toHaveBeenCalledTimes(1)
  })
})

describe('adding the chain the server describes', () => {
  test('uses its name, public RPC, coin and explorer; else falls back to a known chain', async () => {
    const add = chainAdder({
      name: 'HOPE Local',
      rpcUrls: ['http://127.0.0.1:8545'],
      nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
      blockExplorerUrls: [],
    })
    expect(await add(31337)).toEqual({
      chainId: '0x7a69',
      chainName: 'HOPE Local',
      nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
      rpcUrls: ['http://127.0.0.1:8545'],
    })
    expect((await chainAdder(null)(56))?.chainName).toBe('BNB Smart Chain')
    expect(await chainAdder(null)(31337)).toBeNull()
  })

  test('a wallet without the chain adds it from the description, then switches', async () => {
    const wallet = createFakeChainWallet({ chainId: '0x1' })
    const add = chainAdder({
      name: 'HOPE Local',
      rpcUrls: ['http://127.0.0.1:8545'],
      nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
      blockExplorerUrls: [],
    })
    await switchChain(wallet, 31337, { addChain: add, onWaiting: () => () => {} })
    expect(wallet.chainId).toBe('0x7a69')
    expect(wallet.calls.map((c) => c.method)).toContain('wallet_addEthereumChain')
  })
})
