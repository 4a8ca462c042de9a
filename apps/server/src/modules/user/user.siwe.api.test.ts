import type { LoginMessage, LoginResult } from '@hope/api'
import { Wallet } from 'ethers'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { describe, expect, test } from 'vitest'
import {
  DEMO_ROOT,
  call,
  databaseTargets,
  newWallet,
  signLogin,
  useTestApp,
} from '../../testing/index.ts'

describe('Sign-In with Ethereum (EIP-4361)', () => {
  const t = useTestApp(databaseTargets()[0]!)
  let n = 0
  const ip = () => `10.9.${Math.floor(++n / 250)}.${n % 250}`

  /** A new wallet, registered under the demo root. */
  const registeredWallet = async () => {
    const wallet = newWallet()
    await call(
      t.app,
      'user/register',
      { ...(await signLogin(wallet)), invitationCode: DEMO_ROOT.referralCode },
      { ip: ip() },
    )
    return wallet
  }

  const messageFor = async (address: string) =>
    (
      await call<'user/loginMessage', LoginMessage>(
        t.app,
        'user/loginMessage',
        { username: address },
        { ip: ip() },
      )
    ).body.data.message

  test('the message names this site, the address, version 1, the chain, a nonce and its times', async () => {
    const wallet = newWallet()
    const before = Date.now()
    const message = await messageFor(wallet.address)
    const fields = parseSiweMessage(message)
    expect(fields).toMatchObject({
      domain: 'hope.test',
      address: wallet.address,
      uri: 'http://hope.test',
      version: '1',
      chainId: 1,
      statement: 'Sign in to HOPE with this wallet.',
    })
    expect(fields.nonce).toMatch(/^[a-zA-Z0-9]{8,}$/)
    expect(fields.issuedAt!.getTime()).toBeGreaterThanOrEqual(before - 1_000)
    expect(fields.expirationTime!.getTime() - fields.issuedAt!.getTime()).toBe(5 * 60_000)
    expect(await messageFor(wallet.address)).not.toBe(message)
  })

  test('registers and signs in with it, signed by viem or by ethers; each message opens one session', async () => {
    const wallet = newWallet()
    let message = await messageFor(wallet.address)
    const registered = await call<'user/register', LoginResult>(
      t.app,
      'user/register',
      {
        username: wallet.address,
        message,
        signature: await wallet.signMessage({ message }),
        invitationCode: DEMO_ROOT.referralCode,
      },
      { ip: ip() },
    )
    expect(registered.body).toMatchObject({ code: 200 })

    const ethersWallet = new Wallet(`0x${'4c'.repeat(32)}`)
    const other = newWallet()
    message = await messageFor(ethersWallet.address)
    const viaEthers = await call<'user/register', LoginResult>(
      t.app,
      'user/register',
      {
        username: ethersWallet.address,
        message,
        signature: await ethersWallet.signMessage(message),
        pusername: wallet.address,
      },
      { ip: ip() },
    )
    expect(viaEthers.body).toMatchObject({ code: 200 })

    message = await messageFor(wallet.address)
    const pair = {
      username: wallet.address,
      message,
      signature: await wallet.signMessage({ message }),
    }
    const login = await call<'user/logining', LoginResult>(t.app, 'user/logining', pair, {
      ip: ip(),
    })
    expect(login.body.code).toBe(200)
    // The same signed message again (a thief who saw it): its nonce is spent.
    const replay = await call(t.app, 'user/logining', pair, { ip: ip() })
    expect(replay.body).toMatchObject({ reason: 'signature_expired' })
    // Someone else's message, signed by them, does not sign this address in.
    const theirs = await messageFor(other.address)
    const borrowed = await call(
      t.app,
      'user/logining',
      {
        username: wallet.address,
        message: theirs,
        signature: await wallet.signMessage({ message: theirs }),
      },
      { ip: ip() },
    )
    expect(borrowed.body).toMatchObject({ reason: 'invalid_message' })
    // Operators see how sign-ins are signed, to know when the legacy message can go.
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' })
    expect(metrics.body).toMatch(/^hope_signins_by_message\{message="siwe"\} [1-9]/m)
  })

  test('another site, another chain, an unknown nonce, an expired or future message: refused', async () => {
    const wallet = await registeredWallet()
    const fields = parseSiweMessage(await messageFor(wallet.address))
    const base = {
      domain: fields.domain!,
      address: wallet.address,
      uri: fields.uri!,
      version: '1' as const,
      chainId: 1,
      nonce: fields.nonce!,
      issuedAt: fields.issuedAt!,
      expirationTime: fields.expirationTime!,
    }
    const attempt = async (changes: Partial<typeof base>) => {
      const message = createSiweMessage({ ...base, ...changes })
      return (
        await call(
          t.app,
          'user/logining',
          { username: wallet.address, message, signature: await wallet.signMessage({ message }) },
          { ip: ip() },
        )
      ).body.reason
    }
    expect(await attempt({ domain: 'hope.phish.example', uri: 'https://hope.phish.example' })).toBe(
      'invalid_message',
    )
    expect(await attempt({ chainId: 56 })).toBe('invalid_message')
    expect(await attempt({ nonce: 'madeUpNonce123' })).toBe('signature_expired')
    expect(await attempt({ expirationTime: new Date(Date.now() - 1_000) })).toBe(
      'signature_expired',
    )
    expect(await attempt({ issuedAt: new Date(Date.now() + 10 * 60_000) })).toBe(
      'message_time_invalid',
    )
    // Untouched, the same nonce still signs in: the refusals spent nothing.
    expect(await attempt({})).toBeUndefined()
  })

  test('the legacy message signs in while legacyLoginMessage is on, and not after', async () => {
    const wallet = await registeredWallet()
    const legacy = async () =>
      (await call(t.app, 'user/logining', await signLogin(wallet), { ip: ip() })).body.code
    expect(await legacy()).toBe(200)
    const settings = t.app.services.settings
    await settings.set('legacyLoginMessage', false, 'test')
    try {
      const off = await call(t.app, 'user/logining', await signLogin(wallet), { ip: ip() })
      expect(off.body).toMatchObject({ reason: 'invalid_message' })
      const message = await messageFor(wallet.address)
      const siwe = await call(
        t.app,
        'user/logining',
        { username: wallet.address, message, signature: await wallet.signMessage({ message }) },
        { ip: ip() },
      )
      expect(siwe.body.code).toBe(200)
      // The console counts sign-ins by message, and shows the setting.
      const seen = (await t.app.services.admin.dashboard()).signIns
      expect(seen).toMatchObject({ days: 7, legacyAccepted: false })
      expect(seen.siwe).toBeGreaterThan(0)
      expect(seen.legacy).toBeGreaterThan(0)
    } finally {
      await settings.set('legacyLoginMessage', true, 'test')
    }
  })
})
