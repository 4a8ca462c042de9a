import type { LoginResult } from '@hope/api'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test, vi } from 'vitest'
import { TEST_KEYS } from '../../test/fake-wallet.ts'
import { loginPairKey } from '../../lib/wallet/login-pair.ts'
import { loginSteps, type LoginDeps } from './login-steps.ts'

const alice = privateKeyToAccount(TEST_KEYS.alice)
const bob = privateKeyToAccount(TEST_KEYS.bob)
const address = alice.address.toLowerCase() as `0x${string}`
const NOW = 1763779200000
const result = { token: 'tok', userName: address } as LoginResult
const expired = Object.assign(new Error('expired'), { code: 401, reason: 'signature_expired' })

function setup(overrides: Partial<LoginDeps> = {}) {
  const storage = window.sessionStorage
  const sign = vi.fn((message: string) => alice.signMessage({ message }))
  const request = vi.fn<LoginDeps['request']>().mockResolvedValue(result)
  const deps: LoginDeps = {
    address,
    location: 1,
    pusername: null,
    storage,
    sign,
    request,
    now: () => NOW,
    ...overrides,
  }
  return { deps, sign, request, storage }
}

async function cachePair(message: string) {
  const pair = { message, signature: await alice.signMessage({ message }) }
  window.sessionStorage.setItem(loginPairKey(address), JSON.stringify(pair))
  return pair
}

describe('login steps', () => {
  test('reuses the cached pair without signing', async () => {
    const pair = await cachePair('HOPE Login1763779100000')
    const { deps, sign, request } = setup()
    await expect(loginSteps(deps)).resolves.toEqual({ ok: true, result })
    expect(sign).not.toHaveBeenCalled()
    expect(request).toHaveBeenCalledWith(
      'user/logining',
      expect.objectContaining({ username: address, ...pair }),
      { hideToast: true },
    )
  })

  test("signs 'HOPE Login<ms>' when nothing is cached and keeps the pair", async () => {
    const { deps, sign, storage } = setup()
    await loginSteps(deps)
    expect(sign).toHaveBeenCalledExactlyOnceWith(`HOPE Login${NOW}`)
    const stored = JSON.parse(storage.getItem(`hope:login:${address}`) ?? 'null')
    expect(stored.message).toBe(`HOPE Login${NOW}`)
  })

  test('signs the server’s Sign-In with Ethereum message when it gives one', async () => {
    const message = 'localhost wants you to sign in with your Ethereum account:\n…\nNonce: n1'
    const fetchMessage = vi.fn(async () => message)
    const { deps, sign, request } = setup({ fetchMessage })
    await expect(loginSteps(deps)).resolves.toEqual({ ok: true, result })
    expect(sign).toHaveBeenCalledExactlyOnceWith(message)
    expect(request).toHaveBeenCalledWith('user/logining', expect.objectContaining({ message }), {
      hideToast: true,
    })
  })

  test('a server that cannot give its message is a failed request, not a failed signature', async () => {
    const down = Object.assign(new Error('down'), { code: 503, reason: 'service_unavailable' })
    const { deps, sign } = setup({ fetchMessage: vi.fn(() => Promise.reject(down)) })
    await expect(loginSteps(deps)).resolves.toEqual({ ok: false, failure: 'request', cause: down })
    expect(sign).not.toHaveBeenCalled()
  })

  test('signature_expired drops the pair, signs once more and logs in', async () => {
    await cachePair('HOPE Login1763000000000')
    const { deps, sign, request, storage } = setup()
    request.mockRejectedValueOnce(expired)
    await expect(loginSteps(deps)).resolves.toEqual({ ok: true, result })
    expect(sign).toHaveBeenCalledTimes(1)
    expect(request).toHaveBeenCalledTimes(2)
    expect(request.mock.calls[1]?.[1].message).toBe(`HOPE Login${NOW}`)
    expect(JSON.parse(storage.getItem(loginPairKey(address)) ?? '{}').message).toBe(
      `HOPE Login${NOW}`,
    )
  })

  test('a second signature_expired does not loop', async () => {
    const { deps, sign, request } = setup()
    request.mockRejectedValue(expired)
    await expect(loginSteps(deps)).resolves.toMatchObject({ ok: false, failure: 'request' })
    expect(sign).toHaveBeenCalledTimes(2)
    expect(request).toHaveBeenCalledTimes(2)
  })

  test('a refused login keeps the pair for the next attempt; a pair found invalid is dropped', async () => {
    const { deps, sign, request, storage } = setup()
    const notRegistered = Object.assign(new Error('no'), { code: 404, reason: 'not_registered' })
    request.mockRejectedValueOnce(notRegistered)
    await expect(loginSteps(deps)).resolves.toEqual({
      ok: false,
      failure: 'request',
      cause: notRegistered,
    })
    expect(storage.getItem(loginPairKey(address))).toContain(`HOPE Login${NOW}`)
    const invalid = Object.assign(new Error('bad'), { code: 401, reason: 'signature_invalid' })
    request.mockRejectedValueOnce(invalid)
    await expect(loginSteps(deps)).resolves.toMatchObject({ ok: false, cause: invalid })
    expect(sign).toHaveBeenCalledTimes(1)
    expect(storage.getItem(loginPairKey(address))).toBeNull()
  })

  test('refuses a pair signed by another key', async () => {
    const { deps, request, storage } = setup({
      sign: (message) => bob.signMessage({ message }),
    })
    await expect(loginSteps(deps)).resolves.toEqual({ ok: false, failure: 'sign' })
    expect(request).not.toHaveBeenCalled()
    expect(storage.getItem(loginPairKey(address))).toBeNull()
  })

  test('a refused signature fails the login', async () => {
    const refusal = Object.assign(new Error('rejected'), { code: 4001 })
    const { deps, request } = setup({ sign: () => Promise.reject(refusal) })
    await expect(loginSteps(deps)).resolves.toEqual({ ok: false, failure: 'sign', cause: refusal })
    expect(request).not.toHaveBeenCalled()
  })
})
