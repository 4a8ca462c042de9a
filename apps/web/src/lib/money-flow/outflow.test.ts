import { SHELL_BOOT_ELEMENT_ID, type OutflowSignaturePolicy } from '@hope/api'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { resetBootData } from '../api/boot.ts'
import { ApiError } from '../api/request.ts'
import { i18n } from '../i18n/i18n.ts'
import { showToast } from '../ui/toast.ts'
import { useSession } from '../store.ts'
import {
  createFakeWallet,
  installWallet,
  signInFakeWallet,
  type FakeWallet,
} from '../../test/fake-wallet.ts'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { needsWalletSignature, outflowPolicy, sendOutflow } from './outflow.ts'

vi.mock('../ui/toast.ts', () => ({ showToast: vi.fn() }))

const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

/** The shell as the server sends it, with the operators' policy in its boot data. */
function shellWith(policy: OutflowSignaturePolicy | undefined) {
  const boot = document.createElement('script')
  boot.id = SHELL_BOOT_ELEMENT_ID
  boot.type = 'application/json'
  boot.textContent = JSON.stringify({
    banners: {},
    ...(policy ? { outflowSignature: policy } : {}),
  })
  document.head.append(boot)
  resetBootData()
}

/** The server's answers, in the order the app asked. */
function serve() {
  return fakeApi({
    'userAccount/withdraw': (call) => ok({ id: 1, ...call.params }),
    'userAccount/transfer': (call) => ok({ transferId: '1', ...call.params }),
    'game/activate': () => ok({ paid: '100', hope: '0', level: 1, nodes: [], replayed: false }),
  })
}

describe('an outflow is signed before it is sent whenever the policy says so', () => {
  let wallet: FakeWallet
  let own: `0x${string}`
  beforeAll(() => Promise.all([import('../wallet/wagmi.ts'), import('../wallet/switch-chain.ts')]))
  beforeEach(() => {
    wallet = createFakeWallet()
    installWallet(wallet)
    own = wallet.address.toLowerCase() as `0x${string}`
    useSession.setState({ address: own, token: 'tok' })
  })
  afterEach(() => {
    document.getElementById(SHELL_BOOT_ELEMENT_ID)?.remove()
    resetBootData()
    installWallet(undefined)
  })

  test('the policy comes from the shell; without one, the server’s default', () => {
    shellWith('all')
    expect(outflowPolicy()).toBe('all')
    expect(needsWalletSignature('withdraw', own)).toBe(true)
    document.getElementById(SHELL_BOOT_ELEMENT_ID)?.remove()
    shellWith(undefined)
    expect(outflowPolicy()).toBe('others')
    expect(needsWalletSignature('withdraw', own)).toBe(false)
  })

  test('policy all: a withdrawal to the own wallet is signed first, never sent unsigned', async () => {
    shellWith('all')
    const api = serve()
    await sendOutflow('userAccount/withdraw', { amount: '50', idempotencyKey: 'key-all-0001' })
    expect(api.calls.map((c) => c.path)).toEqual([
      'userAccount/outflowTypedData',
      'userAccount/withdraw',
    ])
    expect(api.callsTo('userAccount/withdraw')[0]?.params.signature).toMatch(/^0x[0-9a-f]{130}$/)
    expect(wallet.calls).toContain('eth_signTypedData_v4')
  })

  test('policy others: a withdrawal to the own wallet goes unsigned, the wallet is not asked', async () => {
    shellWith('others')
    const api = serve()
    await sendOutflow('userAccount/withdraw', { amount: '50', idempotencyKey: 'key-oth-0001' })
    expect(api.calls.map((c) => c.path)).toEqual(['userAccount/withdraw'])
    expect(api.callsTo('userAccount/withdraw')[0]?.params.signature).toBeUndefined()
    expect(wallet.calls).not.toContain('eth_signTypedData_v4')
  })

  test.each(['others', 'all'] as const)(
    'policy %s: a transfer, a withdrawal elsewhere and an activation are signed first',
    async (policy) => {
      shellWith(policy)
      const api = serve()
      await sendOutflow('userAccount/transfer', {
        address: OTHER,
        amount: '5',
        idempotencyKey: 'key-tr-0001',
      })
      await sendOutflow('userAccount/withdraw', {
        address: OTHER,
        amount: '50',
        idempotencyKey: 'key-wd-0001',
      })
      await sendOutflow('game/activate', {
        address: OTHER,
        level: 1,
        idempotencyKey: 'key-ac-0001',
      })
      expect(api.calls.map((c) => c.path)).toEqual([
        'userAccount/outflowTypedData',
        'userAccount/transfer',
        'userAccount/outflowTypedData',
        'userAccount/withdraw',
        'userAccount/outflowTypedData',
        'game/activate',
      ])
      for (const path of ['userAccount/transfer', 'userAccount/withdraw', 'game/activate'] as const)
        expect(api.callsTo(path)[0]?.params.signature, path).toMatch(/^0x[0-9a-f]{130}$/)
      // An activation names its level; the server writes the price.
      expect(api.callsTo('userAccount/outflowTypedData')[2]?.params).toEqual({
        kind: 'activate',
        address: OTHER,
        level: '1',
        idempotencyKey: 'key-ac-0001',
      })
    },
  )
})

describe('the wallet is put on the app’s network before it signs, as for a recharge', () => {
  const described = {
    name: 'HOPE Chain',
    rpcUrls: ['https://rpc.example'],
    nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 },
    blockExplorerUrls: [],
  }
  beforeAll(() => Promise.all([import('../wallet/wagmi.ts'), import('../wallet/switch-chain.ts')]))
  function walletOn(opts: Parameters<typeof createFakeWallet>[1]) {
    return signInFakeWallet(createFakeWallet(undefined, opts))
  }
  function serveWithChain() {
    return fakeApi({
      'userAccount/transfer': (call) => ok({ transferId: '1', ...call.params }),
      'userAccount/getAddress': () => ok({ chainId: 1, chain: described }),
    })
  }
  const transfer = () =>
    sendOutflow('userAccount/transfer', {
      address: OTHER,
      amount: '5',
      idempotencyKey: 'key-sw-01',
    })
  afterEach(() => {
    installWallet(undefined)
    vi.mocked(showToast).mockClear()
  })

  test('a wallet without the chain (4902) adds the one the server describes, switches and signs', async () => {
    const wallet = walletOn({ chainId: '0x38', knownChains: [] })
    const api = serveWithChain()
    await transfer()
    const walletSteps = wallet.calls.filter((m) => m.startsWith('wallet_') || m.includes('sign'))
    expect(walletSteps).toEqual([
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_switchEthereumChain',
      'eth_signTypedData_v4',
    ])
    expect(api.calls.map((c) => c.path)).toEqual([
      'userAccount/outflowTypedData',
      'userAccount/getAddress',
      'userAccount/transfer',
    ])
  })

  test.each([
    ['refuse', 'chain:outflow.switchRefused'],
    ['fail', 'chain:outflow.switchFailed'],
  ] as const)(
    'a switch the wallet answers with %s is said in its own words',
    async (answer, key) => {
      const wallet = walletOn({ chainId: '0x38', switchAnswer: answer })
      const api = serveWithChain()
      await expect(transfer()).rejects.toBeInstanceOf(ApiError)
      expect(wallet.calls).not.toContain('eth_signTypedData_v4')
      expect(api.callsTo('userAccount/transfer')).toHaveLength(0)
      const said = vi.mocked(showToast).mock.calls.map(([text]) => text)
      expect(said).toHaveLength(1)
      expect(said[0]).toBe(
        i18n.t(key as 'chain:outflow.switchFailed', { reason: 'Internal error' }),
      )
      expect(said[0]).not.toBe(i18n.t('wallet.signRefused'))
    },
  )

  test('a signature the user declines says it was not signed', async () => {
    walletOn({ rejectSign: true })
    serveWithChain()
    await expect(transfer()).rejects.toBeInstanceOf(ApiError)
    expect(vi.mocked(showToast).mock.calls.map(([text]) => text)).toEqual([
      i18n.t('wallet.signRefused'),
    ])
  })
})
