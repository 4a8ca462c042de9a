import fs from 'node:fs'
import path from 'node:path'
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  getContractAddress,
  http,
  parseUnits,
  toHex,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
} from 'viem'
import { HDKey, hdKeyToAccount } from 'viem/accounts'
import porRegistry from './contracts/PorRegistry.json' with { type: 'json' }
import token from './contracts/TetherLikeToken.json' with { type: 'json' }
import { LOCAL_CHAIN_ID } from './anvil.ts'
import { reserveMessage } from '../modules/por/por.rules.ts'
import type { SettingsService } from '../modules/settings/settings.service.ts'

/** Anvil's standard development mnemonic: its accounts are public test accounts. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'
/**
 * The mnemonic's BIP-39 seed (public, as the mnemonic is). Stretching the mnemonic into it takes
 * 2,048 rounds of PBKDF2, tens of milliseconds on every start; the accounts derive from it in a
 * few milliseconds each (local-chain.test.ts checks it against the mnemonic).
 */
export const DEV_SEED =
  '9dfc3c64c2f8bede1533b6a79f8570e5943e0b8fd1cf77107adf7b72cef42185d564a3aee24cab43f80e3c4538087d70fc824eabbad596a23c97b6ee8322ccc0'
let devRoot: HDKey | null = null
const devAccounts = new Map<number, ReturnType<typeof hdKeyToAccount>>()
/** A development account (m/44'/60'/0'/0/index), each derived once. */
export function devAccount(index: number): ReturnType<typeof hdKeyToAccount> {
  let account = devAccounts.get(index)
  if (!account) {
    devRoot ??= HDKey.fromMasterSeed(Buffer.from(DEV_SEED, 'hex'))
    account = hdKeyToAccount(devRoot, { addressIndex: index })
    devAccounts.set(index, account)
  }
  return account
}

/** A development account's private key (public knowledge: Anvil's mnemonic), as hex. */
export const devKey = (index: number): `0x${string}` =>
  toHex(devAccount(index).getHdKey().privateKey!)

/** Roles of the local chain's development accounts. */
export const LOCAL_ROLES = {
  /** Deploys the token and the proof-of-liabilities registry; also the demo root user's wallet. */
  deployer: 0,
  deposit: 1,
  hotWallet: 2,
} as const

export const TOKEN_DECIMALS = 6

export function localChain(rpcUrl: string): Chain {
  return defineChain({
    id: LOCAL_CHAIN_ID,
    name: 'HOPE local chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
}

export interface LocalChainSetup {
  tokenAddress: Address
  depositAddress: Address
  hotWalletAddress: Address
  /** The proof-of-liabilities registry, owned by the deployer. */
  porRegistryAddress: Address
}

/**
 * Makes sure the local chain has the USDT-like token and the proof-of-liabilities registry
 * (deployed on the first start, or again if the chain's state was reset) and funds the demo
 * wallets. Idempotent.
 */
export async function prepareLocalChain(
  rpcUrl: string,
  knownToken: string | undefined,
  knownRegistry?: string,
): Promise<LocalChainSetup> {
  const chain = localChain(rpcUrl)
  const client = createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient
  const deployer = devAccount(LOCAL_ROLES.deployer)
  const wallet = createWalletClient({ chain, transport: http(rpcUrl), account: deployer })
  const setup = {
    depositAddress: devAccount(LOCAL_ROLES.deposit).address,
    hotWalletAddress: devAccount(LOCAL_ROLES.hotWallet).address,
  }
  const deployed = async (address: string | undefined) =>
    !!address && ((await client.getCode({ address: address as Address })) ?? '0x') !== '0x'
  // Every transaction goes out at once with its own nonce and is mined with the others: one
  // block's wait (a second) instead of one per transaction.
  let nonce = await client.getTransactionCount({ address: deployer.address, blockTag: 'pending' })
  const sent: Hex[] = []

  const tokenAddress = (await deployed(knownToken)) ? (knownToken as Address) : await deployToken()
  // After the token, so the token keeps the address a fresh chain has always given it.
  const porRegistryAddress = (await deployed(knownRegistry))
    ? (knownRegistry as Address)
    : await deploy(porRegistry, [])
  for (const hash of sent) {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 })
    if (receipt.status !== 'success') throw new Error(`local chain setup: ${hash} reverted`)
  }
  return { ...setup, porRegistryAddress, tokenAddress }

  /** Sends a deployment; its address follows from the deployer's address and the nonce. */
  async function deploy(
    contract: { abi: unknown[]; bytecode: string },
    args: unknown[],
  ): Promise<Address> {
    const address = getContractAddress({ from: deployer.address, nonce: BigInt(nonce) })
    sent.push(
      await wallet.deployContract({
        abi: contract.abi,
        bytecode: contract.bytecode as `0x${string}`,
        args,
        nonce: nonce++,
      }),
    )
    return address
  }

  async function deployToken(): Promise<Address> {
    const tokenAddress = await deploy(token, ['Tether USD', 'USDT', TOKEN_DECIMALS])
    // Demo money: the root's wallet, the hot wallet (for payouts) and dev accounts 3–9.
    const grants: [Address, string][] = [
      [deployer.address, '1000000'],
      [setup.hotWalletAddress, '100000'],
      ...[3, 4, 5, 6, 7, 8, 9].map((i) => [devAccount(i).address, '10000'] as [Address, string]),
    ]
    for (const [to, amount] of grants)
      sent.push(
        await wallet.writeContract({
          address: tokenAddress,
          abi: token.abi,
          functionName: 'mint',
          args: [to, parseUnits(amount, TOKEN_DECIMALS)],
          nonce: nonce++,
          // Not estimated: the token is deployed in the same block, after the estimate's state.
          gas: MINT_GAS,
        }),
      )
    return tokenAddress
  }
}

/** Gas for one mint of the local token (about 70,000 used for a new holder). */
const MINT_GAS = 150_000n

/** Where a running app's local chain answers, from the note it keeps under DATA_DIR. */
export function localChainNote(dataDir: string): string {
  return path.join(dataDir, 'chain', 'anvil.json')
}

export function writeLocalChainNote(dataDir: string, url: string): void {
  fs.writeFileSync(localChainNote(dataDir), JSON.stringify({ url, pid: process.pid }))
}

export function runningLocalChain(dataDir: string): string | null {
  try {
    const note = JSON.parse(fs.readFileSync(localChainNote(dataDir), 'utf8')) as {
      url: string
      pid: number
    }
    process.kill(note.pid, 0)
    return note.url
  } catch {
    return null
  }
}

/**
 * Deploys what the local chain needs (once) and points the settings at it: the token, its
 * decimals, the deposit address, and how a wallet on this machine adds the chain. Run by the
 * one process that started the chain.
 */
export async function configureLocalChain(
  settings: SettingsService,
  rpcUrl: string,
): Promise<LocalChainSetup> {
  const known = await settings.get()
  const local = await prepareLocalChain(
    rpcUrl,
    known.chainTokenAddress || undefined,
    known.porRegistryAddress || undefined,
  )
  const current = await settings.get()
  const wanted = {
    chainTokenAddress: local.tokenAddress,
    chainTokenDecimals: TOKEN_DECIMALS,
    chainDepositAddress: local.depositAddress,
    chainName: 'HOPE Local',
    chainPublicRpcUrl: rpcUrl,
    porRegistryAddress: local.porRegistryAddress,
  } as const
  for (const [key, value] of Object.entries(wanted) as [keyof typeof wanted, string | number][]) {
    if (String(current[key]).toLowerCase() !== String(value).toLowerCase())
      await settings.set(key, value, 'local-chain')
  }
  // The reserve wallets prove once that the platform holds their keys: again only when the
  // registry or the token moved (the signatures name both) or the proofs are not there.
  const reserves = [LOCAL_ROLES.deposit, LOCAL_ROLES.hotWallet]
  const proven =
    current.porRegistryAddress.toLowerCase() === local.porRegistryAddress.toLowerCase() &&
    current.chainTokenAddress.toLowerCase() === local.tokenAddress.toLowerCase() &&
    current.porReserveSignatures.map((s) => s.address).join() ===
      reserves.map((r) => devAccount(r).address).join()
  if (!proven) {
    const signed = await signReserveOwnership(
      reserves,
      local.porRegistryAddress,
      local.tokenAddress,
    )
    await settings.set('porReserveSignatures', signed, 'local-chain')
  }
  return local
}

/** Each dev account's EIP-191 signature of its reserve ownership message on the local chain. */
export async function signReserveOwnership(
  roles: number[],
  registry: string,
  token: string,
): Promise<{ address: string; signature: string }[]> {
  return Promise.all(
    roles.map(async (role) => {
      const account = devAccount(role)
      const message = reserveMessage(account.address, LOCAL_CHAIN_ID, registry, token)
      return { address: account.address, signature: await account.signMessage({ message }) }
    }),
  )
}
