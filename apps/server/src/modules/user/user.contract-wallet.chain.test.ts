// Smart-contract wallets sign in and sign outflows, on a real chain (Anvil): one deployed
// (EIP-1271) and one not deployed yet (EIP-6492), whose signature carries its factory's
// deployment call.
import type { LoginMessage, LoginResult, OutflowTypedData, Withdrawal } from '@hope/api'
import type { FastifyInstance } from 'fastify'
import {
  createWalletClient,
  encodeFunctionData,
  hashMessage,
  hashTypedData,
  http,
  serializeErc6492Signature,
  type Address,
  type Hex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import factoryJson from '../../chain/contracts/OwnedWalletFactory.json' with { type: 'json' }
import { connectChain } from '../../chain/chain.service.ts'
import { devAccount, localChain } from '../../chain/local-chain.ts'
import { startChainFixture, type ChainFixture } from '../../testing/chain-fixture.ts'
import {
  DEMO_ROOT,
  buildTestApp,
  call,
  databaseTargets,
  fundAccount,
  newWallet,
  useTestDatabase,
} from '../../testing/index.ts'

describe('smart-contract wallets sign in', () => {
  let fixture: ChainFixture
  const t = useTestDatabase(databaseTargets()[0]!)
  let app: FastifyInstance
  let factory: Address
  let n = 0
  const ip = () => `10.8.0.${++n}`

  const deployer = () =>
    createWalletClient({
      chain: localChain(fixture.anvil.url),
      transport: http(fixture.anvil.url),
      account: devAccount(6),
    })

  beforeAll(async () => {
    fixture = await startChainFixture()
    app = await buildTestApp(t.db, {
      chain: connectChain(fixture.anvil.url, fixture.anvil.chainId),
    })
    const hash = await deployer().deployContract({
      abi: factoryJson.abi,
      bytecode: factoryJson.bytecode as Hex,
    })
    factory = (await fixture.client.waitForTransactionReceipt({ hash })).contractAddress!
  })
  afterAll(async () => {
    await app?.close()
    await fixture?.stop()
  })

  const walletAddress = async (owner: Address, salt: Hex) =>
    (await fixture.client.readContract({
      address: factory,
      abi: factoryJson.abi,
      functionName: 'addressOf',
      args: [owner, salt],
    })) as Address

  /** Registers `address` with a Sign-In with Ethereum message signed by `sign`. */
  async function register(address: Address, sign: (message: string) => Promise<Hex>) {
    const { message } = (
      await call<'user/loginMessage', LoginMessage>(
        app,
        'user/loginMessage',
        { username: address },
        { ip: ip() },
      )
    ).body.data
    return call<'user/register', LoginResult>(
      app,
      'user/register',
      {
        username: address,
        message,
        signature: await sign(message),
        invitationCode: DEMO_ROOT.referralCode,
      },
      { ip: ip() },
    )
  }

  /**
   * A withdrawal to another address, signed (EIP-712) by `sign` over the typed data's hash:
   * the server's answer.
   */
  async function withdrawSigned(user: LoginResult, sign: (hash: Hex) => Promise<Hex>) {
    await fundAccount(t.db.pool, user.id, '100')
    const params = {
      amount: '20',
      address: newWallet().address,
      idempotencyKey: `cw-key-${++n}-${Date.now()}`,
    }
    const typed = (
      await call<'userAccount/outflowTypedData', OutflowTypedData>(
        app,
        'userAccount/outflowTypedData',
        { kind: 'withdraw', ...params },
        { token: user.token },
      )
    ).body.data
    const hash = hashTypedData({
      ...typed,
      message: { ...typed.message, deadline: BigInt(typed.message.deadline) },
    })
    return call<'userAccount/withdraw', Withdrawal>(
      app,
      'userAccount/withdraw',
      { ...params, signature: await sign(hash), deadline: String(typed.message.deadline) },
      { token: user.token },
    )
  }

  test('a deployed wallet (EIP-1271): its owner’s signature of the message’s hash', async () => {
    const owner = newWallet()
    const salt = `0x${'01'.repeat(32)}` as Hex
    const address = await walletAddress(owner.address, salt)
    const hash = await deployer().writeContract({
      address: factory,
      abi: factoryJson.abi,
      functionName: 'deploy',
      args: [owner.address, salt],
    })
    await fixture.client.waitForTransactionReceipt({ hash })
    const res = await register(address, (message) => owner.sign({ hash: hashMessage(message) }))
    expect(res.body).toMatchObject({ code: 200, data: { userName: address.toLowerCase() } })
    // Someone else's key does not sign for it.
    const stranger = newWallet()
    const refused = await register(address, (message) =>
      stranger.sign({ hash: hashMessage(message) }),
    )
    expect(refused.body.reason).toBe('signature_invalid')
    // Its owner signs a withdrawal to another address; a stranger cannot.
    const user = res.body.data
    expect((await withdrawSigned(user, (h) => stranger.sign({ hash: h }))).body.reason).toBe(
      'outflow_signature_invalid',
    )
    expect((await withdrawSigned(user, (h) => owner.sign({ hash: h }))).body.code).toBe(200)
  })

  test('a wallet not deployed yet (EIP-6492): the signature carries its deployment', async () => {
    const owner = newWallet()
    const salt = `0x${'02'.repeat(32)}` as Hex
    const address = await walletAddress(owner.address, salt)
    expect(await fixture.client.getCode({ address })).toBeUndefined()
    const deployment = encodeFunctionData({
      abi: factoryJson.abi,
      functionName: 'deploy',
      args: [owner.address, salt],
    })
    const wrapped = (signature: Hex) =>
      serializeErc6492Signature({ address: factory, data: deployment, signature })
    const res = await register(address, async (message) =>
      wrapped(await owner.sign({ hash: hashMessage(message) })),
    )
    expect(res.body).toMatchObject({ code: 200, data: { userName: address.toLowerCase() } })
    // Checked by simulation only: the wallet is still not deployed.
    expect(await fixture.client.getCode({ address })).toBeUndefined()
    const stranger = newWallet()
    const refused = await register(address, async (message) =>
      wrapped(await stranger.sign({ hash: hashMessage(message) })),
    )
    expect(refused.body.reason).toBe('signature_invalid')
    // Its outflows are signed the same way, still before any deployment.
    const user = res.body.data
    expect(
      (await withdrawSigned(user, async (h) => wrapped(await stranger.sign({ hash: h })))).body
        .reason,
    ).toBe('outflow_signature_invalid')
    expect(
      (await withdrawSigned(user, async (h) => wrapped(await owner.sign({ hash: h })))).body.code,
    ).toBe(200)
    expect(await fixture.client.getCode({ address })).toBeUndefined()
  })
})
