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
  ipMaker,
} from '../../testing/index.ts'

describe('Sign-In with Ethereum (EIP-4361)', () => {
  const t = useTestApp(databaseTargets()[0]!, {
    env: { PUBLIC_ORIGINS: 'https://www.hope.test' },
  })
  const ip = ipMaker(9)

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

  /** Posts `path` as a browser at `host` would, e.g. through a phishing site forwarding to us. */
  const viaHost = async (path: string, params: Record<string, string>, host: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${path}?${new URLSearchParams(params)}`,
      headers: { host },
      remoteAddress: ip(),
    })
    return res.json<{ code: number; reason?: string; data: { message: string } }>()
  }

  test('a phishing site forwarding with its own Host gets our site in the message, and its own never signs in', async () => {
    const wallet = await registeredWallet()
    const phish = 'hope-login.phish.example'
    const handedOut = await viaHost('user/loginMessage', { username: wallet.address }, phish)
    const fields = parseSiweMessage(handedOut.data.message)
    expect(fields).toMatchObject({ domain: 'hope.test', uri: 'http://hope.test' })
    // The phishing page rewrites the message to name itself and has the wallet sign it there.
    const theirs = createSiweMessage({
      domain: phish,
      address: wallet.address,
      statement: fields.statement!,
      uri: `https://${phish}`,
      version: '1',
      chainId: fields.chainId!,
      nonce: fields.nonce!,
      issuedAt: fields.issuedAt!,
      expirationTime: fields.expirationTime!,
    })
    const signed = {
      username: wallet.address,
      message: theirs,
      signature: await wallet.signMessage({ message: theirs }),
    }
    expect(await viaHost('user/logining', signed, phish)).toMatchObject({
      reason: 'invalid_message',
    })
    expect(await viaHost('user/logining', signed, 'hope.test')).toMatchObject({
      reason: 'invalid_message',
    })
  })

  test('every line must be the one handed out: each changed in turn is refused, the genuine one signs in', async () => {
    type Fields = Parameters<typeof createSiweMessage>[0]
    /** A registered wallet's genuine message, and a way to post what it signs. */
    const handedOut = async () => {
      const wallet = await registeredWallet()
      const genuine = await messageFor(wallet.address)
      const f = parseSiweMessage(genuine)
      const base: Fields = {
        domain: f.domain!,
        address: wallet.address,
        statement: f.statement!,
        uri: f.uri!,
        version: '1',
        chainId: f.chainId!,
        nonce: f.nonce!,
        issuedAt: f.issuedAt!,
        expirationTime: f.expirationTime!,
      }
      expect(createSiweMessage(base)).toBe(genuine)
      const post = async (message: string) =>
        (
          await call(
            t.app,
            'user/logining',
            { username: wallet.address, message, signature: await wallet.signMessage({ message }) },
            { ip: ip() },
          )
        ).body.reason
      return { genuine, base, post }
    }
    const issuedPlus = (base: Fields, ms: number) => new Date(base.issuedAt!.getTime() + ms)
    const changes: [string, (m: Awaited<ReturnType<typeof handedOut>>) => string, string][] = [
      [
        'domain',
        (m) => createSiweMessage({ ...m.base, domain: 'hope.phish.example' }),
        'invalid_message',
      ],
      [
        'URI',
        (m) => createSiweMessage({ ...m.base, uri: 'https://hope.phish.example' }),
        'invalid_message',
      ],
      [
        'URI path',
        (m) => createSiweMessage({ ...m.base, uri: 'http://hope.test/claim' }),
        'invalid_message',
      ],
      [
        'statement',
        (m) => createSiweMessage({ ...m.base, statement: 'Claim your airdrop.' }),
        'invalid_message',
      ],
      [
        'no statement',
        (m) => createSiweMessage({ ...m.base, statement: undefined }),
        'invalid_message',
      ],
      ['version', (m) => m.genuine.replace('\nVersion: 1\n', '\nVersion: 2\n'), 'invalid_message'],
      ['chain id', (m) => createSiweMessage({ ...m.base, chainId: 56 }), 'invalid_message'],
      [
        'nonce',
        (m) => createSiweMessage({ ...m.base, nonce: 'madeUpNonce123' }),
        'signature_expired',
      ],
      [
        'issued at, earlier',
        (m) => createSiweMessage({ ...m.base, issuedAt: issuedPlus(m.base, -60_000) }),
        'invalid_message',
      ],
      [
        'issued at, ahead',
        (m) => createSiweMessage({ ...m.base, issuedAt: issuedPlus(m.base, 10 * 60_000) }),
        'message_time_invalid',
      ],
      [
        'expiration, later',
        (m) => createSiweMessage({ ...m.base, expirationTime: issuedPlus(m.base, 3_600_000) }),
        'invalid_message',
      ],
      [
        'expiration, past',
        (m) => createSiweMessage({ ...m.base, expirationTime: new Date(Date.now() - 1_000) }),
        'signature_expired',
      ],
      [
        'resources',
        (m) => createSiweMessage({ ...m.base, resources: ['https://hope.phish.example/withdraw'] }),
        'invalid_message',
      ],
      ['request id', (m) => createSiweMessage({ ...m.base, requestId: 'x1' }), 'invalid_message'],
      [
        'not before',
        (m) => createSiweMessage({ ...m.base, notBefore: issuedPlus(m.base, 0) }),
        'invalid_message',
      ],
      ['scheme', (m) => createSiweMessage({ ...m.base, scheme: 'http' }), 'invalid_message'],
      ['a line after', (m) => `${m.genuine}\nPlease also approve the transfer.`, 'invalid_message'],
      ['a line before', (m) => `Welcome!\n${m.genuine}`, 'invalid_message'],
    ]
    // A few cases per wallet: an address's failures are rate limited.
    let m = await handedOut()
    for (const [i, [line, change, reason]] of changes.entries()) {
      if (i % 6 === 5) {
        // Untouched, the same nonce still signs in: the refusals spent nothing.
        expect(await m.post(m.genuine)).toBeUndefined()
        m = await handedOut()
      }
      expect({ line, reason: await m.post(change(m)) }).toEqual({ line, reason })
    }
    expect(await m.post(m.genuine)).toBeUndefined()
  })

  test('a message naming another origin of the same site (PUBLIC_ORIGINS) signs in', async () => {
    const wallet = await registeredWallet()
    const fields = parseSiweMessage(await messageFor(wallet.address))
    const message = createSiweMessage({
      domain: 'www.hope.test',
      address: wallet.address,
      statement: fields.statement!,
      uri: 'https://www.hope.test',
      version: '1',
      chainId: fields.chainId!,
      nonce: fields.nonce!,
      issuedAt: fields.issuedAt!,
      expirationTime: fields.expirationTime!,
    })
    const login = await call<'user/logining', LoginResult>(
      t.app,
      'user/logining',
      { username: wallet.address, message, signature: await wallet.signMessage({ message }) },
      { ip: ip() },
    )
    expect(login.body.code).toBe(200)
    // Its domain with another origin's URI names no one origin: refused.
    const next = parseSiweMessage(await messageFor(wallet.address))
    const mixed = createSiweMessage({
      domain: 'www.hope.test',
      address: wallet.address,
      statement: next.statement!,
      uri: next.uri!,
      version: '1',
      chainId: next.chainId!,
      nonce: next.nonce!,
      issuedAt: next.issuedAt!,
      expirationTime: next.expirationTime!,
    })
    const refused = await call(
      t.app,
      'user/logining',
      {
        username: wallet.address,
        message: mixed,
        signature: await wallet.signMessage({ message: mixed }),
      },
      { ip: ip() },
    )
    expect(refused.body).toMatchObject({ reason: 'invalid_message' })
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
