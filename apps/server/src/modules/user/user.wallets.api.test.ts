import { buildLoginMessage, type LoginResult, type UserInfo } from '@hope/api'
import { personalSign } from '@metamask/eth-sig-util'
import { Wallet, verifyMessage } from 'ethers'
import { recoverMessageAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { DEMO_ROOT, call, databaseTargets, useTestApp, ipMaker } from '../../testing/index.ts'

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/** A signer as another wallet library makes it: its address and its personal_sign. */
interface Signer {
  name: string
  make(): { address: string; sign(message: string): Promise<string> }
}

const signers: Signer[] = [
  {
    name: 'ethers Wallet.signMessage',
    make() {
      const wallet = Wallet.createRandom()
      return { address: wallet.address, sign: (message) => wallet.signMessage(message) }
    },
  },
  {
    name: '@metamask/eth-sig-util personalSign',
    make() {
      const wallet = Wallet.createRandom()
      const privateKey = Buffer.from(wallet.privateKey.slice(2), 'hex')
      return {
        address: wallet.address,
        sign: async (message) => personalSign({ privateKey, data: message }),
      }
    },
  },
]

const vOf = (signature: string) => Number.parseInt(signature.slice(130, 132), 16)
const withV = (signature: string, v: number) =>
  `${signature.slice(0, 130)}${v.toString(16).padStart(2, '0')}`

/** The malleable twin (s → n − s, v flipped): the same signer recovers from it. */
function twinOf(signature: string): string {
  const s = BigInt(`0x${signature.slice(66, 130)}`)
  const v = vOf(signature)
  const flipped = v >= 27 ? 55 - v : 1 - v
  const sHex = (N - s).toString(16).padStart(64, '0')
  return `${signature.slice(0, 66)}${sHex}${flipped.toString(16).padStart(2, '0')}`
}

describe.each(databaseTargets())('user login from other wallets on $name', (target) => {
  const t = useTestApp(target)
  const ip = ipMaker(7)

  async function signedPair(signer: ReturnType<Signer['make']>) {
    const message = buildLoginMessage(Date.now())
    return { username: signer.address, message, signature: await signer.sign(message) }
  }

  const register = (pair: Record<string, string>) =>
    call<'user/register', LoginResult>(
      t.app,
      'user/register',
      { ...pair, invitationCode: DEMO_ROOT.referralCode },
      { ip: ip() },
    )
  const login = (pair: Record<string, string>) =>
    call<'user/logining', LoginResult>(t.app, 'user/logining', pair, { ip: ip() })

  describe.each(signers)('$name', (kind) => {
    test('registers, signs in, and the token reads the user', async () => {
      const signer = kind.make()
      const registered = await register(await signedPair(signer))
      expect(registered.status).toBe(200)
      expect(registered.body.data.userName).toBe(signer.address.toLowerCase())

      const pair = await signedPair(signer)
      expect([27, 28]).toContain(vOf(pair.signature))
      const res = await login(pair)
      expect(res.status).toBe(200)
      const me = await call<'user/getUserInfo', UserInfo>(
        t.app,
        'user/getUserInfo',
        {},
        {
          token: res.body.data.token,
        },
      )
      expect(me.body.data.userName).toBe(signer.address.toLowerCase())
    })

    test('signs in with v written as 0/1', async () => {
      const signer = kind.make()
      expect((await register(await signedPair(signer))).status).toBe(200)
      const pair = await signedPair(signer)
      const res = await login({
        ...pair,
        signature: withV(pair.signature, vOf(pair.signature) - 27),
      })
      expect(res.status).toBe(200)
      expect(res.body.data.userName).toBe(signer.address.toLowerCase())
    })

    test('refuses the malleable twin of a valid signature, with v as 27/28 or 0/1', async () => {
      const signer = kind.make()
      expect((await register(await signedPair(signer))).status).toBe(200)
      const pair = await signedPair(signer)
      const twin = twinOf(pair.signature)
      // The twin recovers the same signer; only the low-s rule (EIP-2, as ethers applies it)
      // tells it apart.
      const recovered = await recoverMessageAddress({
        message: pair.message,
        signature: twin as `0x${string}`,
      })
      expect(recovered).toBe(signer.address)
      expect(() => verifyMessage(pair.message, twin)).toThrow()

      for (const signature of [twin, withV(twin, vOf(twin) - 27)]) {
        const res = await login({ ...pair, signature })
        expect(res.status).toBe(401)
        expect(res.body.reason).toBe('signature_invalid')
      }
      expect((await login(pair)).status).toBe(200)
    })

    test('does not register with the malleable twin', async () => {
      const signer = kind.make()
      const pair = await signedPair(signer)
      const res = await register({ ...pair, signature: twinOf(pair.signature) })
      expect(res.status).toBe(401)
      expect(res.body.reason).toBe('signature_invalid')
      const count = await t.db.pool.query('SELECT count(*) FROM users WHERE user_name = $1', [
        signer.address.toLowerCase(),
      ])
      expect(count.rows[0].count).toBe('0')
    })
  })
})
