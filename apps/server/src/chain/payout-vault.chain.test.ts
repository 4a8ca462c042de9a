// The payout vault on a real chain (Anvil), one attack per test: a payout paid twice, a key that
// drains the float faster than the caps allow, a key that is not the payer, a stolen payer key
// after rotation, a statement of reserves signed by someone other than the vault's owner.
import {
  BaseError,
  ContractFunctionRevertedError,
  concat,
  createPublicClient,
  createWalletClient,
  hashMessage,
  http,
  keccak256,
  numberToHex,
  pad,
  parseEventLogs,
  parseSignature,
  parseUnits,
  serializeSignature,
  toHex,
  zeroAddress,
  type Abi,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
} from 'viem'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { anvilRpc, startAnvil, type LocalChain } from './anvil.ts'
import tokenJson from './contracts/TetherLikeToken.json' with { type: 'json' }
import vaultJson from './contracts/PayoutVault.json' with { type: 'json' }
import { devAccount, localChain, TOKEN_DECIMALS } from './local-chain.ts'

const vaultAbi = vaultJson.abi as Abi
const tokenAbi = tokenJson.abi as Abi

const DEPLOYER = 0
const PAYER = 2
const STRANGER = 4
const OWNER = 7
const NEXT_PAYER = 8
const RECIPIENT = devAccount(5).address
const COLD = devAccount(6).address

const usdt = (amount: string) => parseUnits(amount, TOKEN_DECIMALS)
const HOURLY_CAP = usdt('100')
const DAILY_CAP = usdt('250')
const FLOAT = usdt('10000')

/** EIP-1271's answer for a valid signature, and the vault's for any other. */
const MAGIC = '0x1626ba7e'
const REFUSED = '0xffffffff'
/** The order of secp256k1's group: s and n − s are the two signatures of one key and hash. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

const payoutId = (n: number): Hex => keccak256(toHex(`payout ${n}`))

describe('the payout vault', () => {
  let anvil: LocalChain
  let client: PublicClient
  let token: Address
  let vault: Address
  let snapshot: unknown

  const wallet = (index: number) =>
    createWalletClient({
      chain: localChain(anvil.url),
      transport: http(anvil.url),
      account: devAccount(index),
    })
  const mined = (hash: Hash) => client.waitForTransactionReceipt({ hash, pollingInterval: 20 })

  /**
   * Calls the vault from dev account `from` as a mined transaction, sent even when it reverts
   * (the gas is given, not estimated), so that a refusal is the chain's, not the client's.
   */
  const send = async (from: number, functionName: string, args: unknown[]) =>
    mined(
      await wallet(from).writeContract({
        address: vault,
        abi: vaultAbi,
        functionName,
        args,
        gas: 300_000n,
      }),
    )

  /**
   * The vault refuses the call from `from`: the mined transaction reverts, and the reason is
   * the one the vault gives when asked (eth_call).
   */
  async function refused(from: number, functionName: string, args: unknown[]): Promise<string> {
    let reason: string | undefined
    try {
      await client.simulateContract({
        account: devAccount(from),
        address: vault,
        abi: vaultAbi,
        functionName,
        args,
      })
    } catch (error) {
      const revert =
        error instanceof BaseError
          ? error.walk((e) => e instanceof ContractFunctionRevertedError)
          : null
      if (!(revert instanceof ContractFunctionRevertedError)) throw error
      reason = revert.reason ?? 'reverted without a reason'
    }
    if (reason === undefined) throw new Error(`${functionName} from ${from} was accepted`)
    expect((await send(from, functionName, args)).status).toBe('reverted')
    return reason
  }

  const read = <T>(functionName: string, args: unknown[] = []) =>
    client.readContract({ address: vault, abi: vaultAbi, functionName, args }) as Promise<T>
  const balanceOf = (address: Address) =>
    client.readContract({
      address: token,
      abi: tokenAbi,
      functionName: 'balanceOf',
      args: [address],
    }) as Promise<bigint>
  const pay = async (n: number, amount: bigint, to: Address = RECIPIENT, from = PAYER) => {
    const receipt = await send(from, 'pay', [payoutId(n), to, amount])
    expect(receipt.status).toBe('success')
    return receipt
  }

  /**
   * Moves the chain's clock to a minute past the start of the next UTC hour (or day), so that
   * the payouts of a test fall in one window whatever the machine's clock says.
   */
  async function startOfNext(seconds: 3_600 | 86_400) {
    const { timestamp } = await client.getBlock()
    const at = (timestamp / BigInt(seconds) + 1n) * BigInt(seconds) + 60n
    await anvilRpc(anvil.url, 'evm_setNextBlockTimestamp', [numberToHex(at)])
    await anvilRpc(anvil.url, 'evm_mine')
  }

  beforeAll(async () => {
    anvil = await startAnvil()
    client = createPublicClient({
      chain: localChain(anvil.url),
      transport: http(anvil.url),
    }) as PublicClient
    const deploy = async (json: { abi: unknown[]; bytecode: string }, args: unknown[]) =>
      (await mined(
        await wallet(DEPLOYER).deployContract({
          abi: json.abi,
          bytecode: json.bytecode as Hex,
          args,
        }),
      ))!.contractAddress!
    token = await deploy(tokenJson, ['Tether USD', 'USDT', TOKEN_DECIMALS])
    vault = await deploy(vaultJson, [
      token,
      devAccount(OWNER).address,
      devAccount(PAYER).address,
      HOURLY_CAP,
      DAILY_CAP,
    ])
    await mined(
      await wallet(DEPLOYER).writeContract({
        address: token,
        abi: tokenAbi,
        functionName: 'mint',
        args: [vault, FLOAT],
      }),
    )
  }, 30_000)
  afterAll(async () => {
    await anvil?.stop()
  })
  // Each test starts from the vault as deployed and funded.
  beforeEach(async () => {
    snapshot = await anvilRpc(anvil.url, 'evm_snapshot')
  })
  afterEach(async () => {
    await anvilRpc(anvil.url, 'evm_revert', [snapshot])
  })

  test('a payout id paid once cannot be paid again, to anyone, and the second pays nothing', async () => {
    await pay(1, usdt('10'))
    const held = await balanceOf(vault)
    expect(await refused(PAYER, 'pay', [payoutId(1), RECIPIENT, usdt('10')])).toBe(
      'payout id already paid',
    )
    expect(await refused(PAYER, 'pay', [payoutId(1), COLD, usdt('1')])).toBe(
      'payout id already paid',
    )
    expect(await balanceOf(vault)).toBe(held)
    expect(await balanceOf(RECIPIENT)).toBe(usdt('10'))
    expect(await read<bigint>('paidToday')).toBe(usdt('10'))
  })

  test('a payer key drains no more than the hourly cap in an hour', async () => {
    await startOfNext(3_600)
    await pay(1, usdt('60'))
    await pay(2, usdt('40'))
    expect(await read<[bigint, bigint]>('headroom')).toEqual([0n, DAILY_CAP - HOURLY_CAP])
    expect(await refused(PAYER, 'pay', [payoutId(3), RECIPIENT, 1n])).toBe('hourly cap')
    // One payout above the cap on its own is refused as well.
    expect(await refused(PAYER, 'pay', [payoutId(4), RECIPIENT, HOURLY_CAP + 1n])).toBe(
      'hourly cap',
    )
    expect(await balanceOf(RECIPIENT)).toBe(HOURLY_CAP)
  })

  test('the hourly window opens again an hour later, within the same day', async () => {
    await startOfNext(86_400)
    await pay(1, HOURLY_CAP)
    expect(await refused(PAYER, 'pay', [payoutId(2), RECIPIENT, 1n])).toBe('hourly cap')
    await anvilRpc(anvil.url, 'evm_increaseTime', [3_600])
    await anvilRpc(anvil.url, 'evm_mine')
    expect(await read<[bigint, bigint]>('headroom')).toEqual([HOURLY_CAP, DAILY_CAP - HOURLY_CAP])
    await pay(2, HOURLY_CAP)
    expect(await balanceOf(RECIPIENT)).toBe(2n * HOURLY_CAP)
  })

  test('a payer key paying every hour drains no more than the daily cap in a day', async () => {
    await startOfNext(86_400)
    await pay(1, HOURLY_CAP)
    await anvilRpc(anvil.url, 'evm_increaseTime', [3_600])
    await pay(2, HOURLY_CAP)
    await anvilRpc(anvil.url, 'evm_increaseTime', [3_600])
    await pay(3, DAILY_CAP - 2n * HOURLY_CAP)
    // The hour still has room; the day has none.
    expect(await read<[bigint, bigint]>('headroom')).toEqual([
      HOURLY_CAP - (DAILY_CAP - 2n * HOURLY_CAP),
      0n,
    ])
    expect(await refused(PAYER, 'pay', [payoutId(4), RECIPIENT, 1n])).toBe('daily cap')
    expect(await balanceOf(RECIPIENT)).toBe(DAILY_CAP)
    // The next UTC day starts afresh.
    await startOfNext(86_400)
    await pay(4, 1n)
  })

  test('only the payer pays: neither the owner nor a stranger', async () => {
    for (const from of [OWNER, STRANGER, DEPLOYER])
      expect(await refused(from, 'pay', [payoutId(1), RECIPIENT, usdt('1')])).toBe('only payer')
    expect(await balanceOf(vault)).toBe(FLOAT)
    expect(await read<bigint>('paidAt', [payoutId(1)])).toBe(0n)
  })

  test('a rotated payer takes over and the old payer key is refused', async () => {
    const receipt = await send(OWNER, 'setPayer', [devAccount(NEXT_PAYER).address])
    expect(
      parseEventLogs({ abi: vaultAbi, logs: receipt.logs, eventName: 'PayerChanged' }),
    ).toEqual([
      expect.objectContaining({
        args: { previous: devAccount(PAYER).address, next: devAccount(NEXT_PAYER).address },
      }),
    ])
    expect(await refused(PAYER, 'pay', [payoutId(1), RECIPIENT, usdt('1')])).toBe('only payer')
    await pay(1, usdt('1'), RECIPIENT, NEXT_PAYER)
    expect(await balanceOf(RECIPIENT)).toBe(usdt('1'))
  })

  test('a paused vault pays nothing until its owner unpauses it', async () => {
    await send(OWNER, 'setPaused', [true])
    expect(await read<boolean>('paused')).toBe(true)
    expect(await refused(PAYER, 'pay', [payoutId(1), RECIPIENT, usdt('1')])).toBe('paused')
    expect(await balanceOf(vault)).toBe(FLOAT)
    await send(OWNER, 'setPaused', [false])
    await pay(1, usdt('1'))
  })

  test('only the owner changes the caps, the payer, the pause, the owner, or moves funds to cold', async () => {
    const stranger = devAccount(STRANGER).address
    for (const from of [PAYER, STRANGER, DEPLOYER]) {
      expect(await refused(from, 'setCaps', [FLOAT, FLOAT])).toBe('only owner')
      expect(await refused(from, 'setPayer', [stranger])).toBe('only owner')
      expect(await refused(from, 'setPaused', [true])).toBe('only owner')
      expect(await refused(from, 'setOwner', [stranger])).toBe('only owner')
      expect(await refused(from, 'moveToCold', [stranger, FLOAT])).toBe('only owner')
    }
    expect(await balanceOf(vault)).toBe(FLOAT)
    expect(await read<bigint>('hourlyCap')).toBe(HOURLY_CAP)
    expect(await read<Address>('payer')).toBe(devAccount(PAYER).address)

    // The owner may: caps (never an hour above the day), and the float to a cold address.
    expect(await refused(OWNER, 'setCaps', [usdt('2'), usdt('1')])).toBe(
      'hourly cap above daily cap',
    )
    await send(OWNER, 'setCaps', [usdt('5'), usdt('20')])
    expect(await refused(PAYER, 'pay', [payoutId(1), RECIPIENT, usdt('6')])).toBe('hourly cap')
    for (const to of [zeroAddress, vault])
      expect(await refused(OWNER, 'moveToCold', [to, 1n])).toBe('bad recipient')
    const moved = await send(OWNER, 'moveToCold', [COLD, usdt('9000')])
    expect(parseEventLogs({ abi: vaultAbi, logs: moved.logs, eventName: 'MovedToCold' })).toEqual([
      expect.objectContaining({ args: { to: COLD, amount: usdt('9000') } }),
    ])
    expect(await balanceOf(COLD)).toBe(usdt('9000'))
    expect(await balanceOf(vault)).toBe(FLOAT - usdt('9000'))

    // A new owner takes over; the old one is refused.
    await send(OWNER, 'setOwner', [stranger])
    expect(await refused(OWNER, 'setPaused', [true])).toBe('only owner')
    await send(STRANGER, 'setPaused', [true])
    expect(await read<boolean>('paused')).toBe(true)
  })

  test('a payout is recorded with its block and told by a Paid event', async () => {
    const receipt = await pay(7, usdt('12.5'))
    expect(await read<bigint>('paidAt', [payoutId(7)])).toBe(receipt.blockNumber)
    expect(await read<bigint>('paidAt', [payoutId(8)])).toBe(0n)
    const events = parseEventLogs({ abi: vaultAbi, logs: receipt.logs, eventName: 'Paid' })
    expect(events).toHaveLength(1)
    expect(events[0]!.address).toBe(vault.toLowerCase())
    expect(events[0]!.args).toEqual({ payoutId: payoutId(7), to: RECIPIENT, amount: usdt('12.5') })
    // The same payout, found by its id as the books look for it.
    const found = await client.getContractEvents({
      address: vault,
      abi: vaultAbi,
      eventName: 'Paid',
      args: { payoutId: payoutId(7) },
      fromBlock: 0n,
    })
    expect(found.map((e) => e.transactionHash)).toEqual([receipt.transactionHash])
  })

  test('a payout to nowhere, to the vault, to the token, of nothing, or without an id is refused', async () => {
    for (const to of [zeroAddress, vault, token])
      expect(await refused(PAYER, 'pay', [payoutId(1), to, usdt('1')])).toBe('bad recipient')
    expect(await refused(PAYER, 'pay', [payoutId(1), RECIPIENT, 0n])).toBe('zero amount')
    expect(await refused(PAYER, 'pay', [pad('0x', { size: 32 }), RECIPIENT, usdt('1')])).toBe(
      'empty payout id',
    )
    expect(await balanceOf(vault)).toBe(FLOAT)
    // None of them used the id up.
    await pay(1, usdt('1'))
  })

  test('the vault vouches for a statement its owner signed, and for no other key’s or twin', async () => {
    const message = 'HOPE proof of reserves\nThe address holds funds that HOPE owes to its users.'
    const hash = hashMessage(message)
    const isValid = (signature: Hex, digest: Hex = hash) =>
      read<Hex>('isValidSignature', [digest, signature])

    const signature = await devAccount(OWNER).signMessage({ message })
    expect(await isValid(signature)).toBe(MAGIC)
    // The same signature over another statement, and another key's over this one.
    expect(await isValid(signature, hashMessage(`${message}!`))).toBe(REFUSED)
    for (const other of [PAYER, STRANGER])
      expect(await isValid(await devAccount(other).signMessage({ message }))).toBe(REFUSED)

    // The malleable twin (n − s, the other parity) recovers the owner too, as ecrecover shows,
    // and is refused: one statement, one signature.
    const { r, s, yParity } = parseSignature(signature)
    const twinS = numberToHex(SECP256K1_N - BigInt(s), { size: 32 })
    const twinParity = yParity === 0 ? 1 : 0
    const twin = serializeSignature({ r, s: twinS, yParity: twinParity })
    const recovered = await client.call({
      to: '0x0000000000000000000000000000000000000001',
      data: concat([hash, numberToHex(27 + twinParity, { size: 32 }), r, twinS]),
    })
    expect(recovered.data?.slice(-40)).toBe(devAccount(OWNER).address.slice(2).toLowerCase())
    expect(await isValid(twin)).toBe(REFUSED)
    // Malformed lengths say no, never revert.
    expect(await isValid(signature.slice(0, 130) as Hex)).toBe(REFUSED)
    expect(await isValid('0x')).toBe(REFUSED)

    // The statement is the owner's of the moment: once the owner changes, the old one's is not.
    await send(OWNER, 'setOwner', [devAccount(STRANGER).address])
    expect(await isValid(signature)).toBe(REFUSED)
    expect(await isValid(await devAccount(STRANGER).signMessage({ message }))).toBe(MAGIC)
  })
})
