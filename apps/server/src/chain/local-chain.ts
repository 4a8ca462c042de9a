import {
  keccak256,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
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
import { REGISTRY_CODE_HASH } from '@hope/por-verify'
import payoutVault from './contracts/PayoutVault.json' with { type: 'json' }
import porRegistry from './contracts/PorRegistry.json' with { type: 'json' }
import token from './contracts/TetherLikeToken.json' with { type: 'json' }
import { anvilRpc, anvilWalletTransport, LOCAL_CHAIN_ID } from './anvil.ts'
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

/**
 * The first ten development accounts as Anvil prints them when it starts (public test keys), so
 * that a start derives no key (local-chain.test.ts checks them against the seed).
 */
const DEV_KEYS: readonly { address: Address; key: Hex }[] = [
  [
    '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  ],
  [
    '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  ],
  [
    '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    '5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  ],
  [
    '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    '7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  ],
  [
    '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
    '47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  ],
  [
    '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
    '8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  ],
  [
    '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    '92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  ],
  [
    '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    '4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  ],
  [
    '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
    'dbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  ],
  [
    '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
    '2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
  ],
].map(([address, key]) => ({ address: address as Address, key: `0x${key}` as Hex }))

/** A development account's address, derived only past the first ten. */
export const devAddress = (index: number): Address =>
  DEV_KEYS[index]?.address ?? devAccount(index).address

/** A development account's private key (public knowledge: Anvil's mnemonic), as hex. */
export const devKey = (index: number): Hex =>
  DEV_KEYS[index]?.key ?? toHex(devAccount(index).getHdKey().privateKey!)

/** Roles of the local chain's development accounts. */
export const LOCAL_ROLES = {
  /** Deploys the token and the proof-of-liabilities registry; also the demo root user's wallet. */
  deployer: 0,
  deposit: 1,
  /** The payout vault's payer: it signs payouts and holds gas money, never the float. */
  hotWallet: 2,
  /**
   * The payout vault's owner (pause, payer, caps, cold moves): its key signs only during the
   * local chain's setup, and no process of the running app holds it.
   */
  vaultOwner: 10,
} as const

/**
 * The local registry's rules: snapshots at least a minute apart (a production registry: 20
 * hours), block B at most 600 blocks old at the publication, the check block within the 5
 * blocks after it (seconds on a chain with a block a second).
 */
export const LOCAL_POR_RULES = { minIntervalS: 60n, maxBlockAge: 600n, checkWindow: 5n } as const

/** The local vault's float and caps, in USDT. */
const LOCAL_VAULT = { float: '100000', hourlyCap: '50000', dailyCap: '200000' } as const

export const TOKEN_DECIMALS = 6

/**
 * The local chain's network: Anvil's own (chain id 31337, a 6-decimal USDT like Ethereum's),
 * or one like BSC (chain id 56, an 18-decimal USDT) for the tests of other networks.
 */
export interface LocalNetwork {
  chainId: number
  tokenDecimals: number
  /** The rules its proof-of-liabilities registry is deployed with. */
  porRules: { minIntervalS: bigint; maxBlockAge: bigint; checkWindow: bigint }
}
export const LOCAL_NETWORK: LocalNetwork = {
  chainId: LOCAL_CHAIN_ID,
  tokenDecimals: TOKEN_DECIMALS,
  porRules: LOCAL_POR_RULES,
}
/**
 * Its registry takes snapshots 20 hours apart, as a production registry does: a verifier
 * accepts a shorter interval only on Anvil's own chain id.
 */
export const BSC_LIKE_NETWORK: LocalNetwork = {
  chainId: 56,
  tokenDecimals: 18,
  porRules: { ...LOCAL_POR_RULES, minIntervalS: 20n * 3600n },
}

export function localChain(rpcUrl: string, chainId: number = LOCAL_CHAIN_ID): Chain {
  return defineChain({
    id: chainId,
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
  /** The payout vault withdrawals are paid from, its payer the hot wallet. */
  payoutVaultAddress: Address
  /** The block the vault was deployed in; null when it was there already. */
  payoutVaultDeployBlock: bigint | null
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
  knownVault?: string,
  network: LocalNetwork = LOCAL_NETWORK,
): Promise<LocalChainSetup> {
  const chain = localChain(rpcUrl, network.chainId)
  const decimals = network.tokenDecimals
  const client = createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient
  const deployer = devAddress(LOCAL_ROLES.deployer)
  // The deployer's key is derived only when something is sent (a fresh or reset chain).
  const deployerWallet = () =>
    createWalletClient({
      chain,
      transport: anvilWalletTransport(rpcUrl),
      account: devAccount(LOCAL_ROLES.deployer),
    })
  let wallet: ReturnType<typeof deployerWallet> | undefined
  const sender = () => (wallet ??= deployerWallet())
  const setup = {
    depositAddress: devAddress(LOCAL_ROLES.deposit),
    hotWalletAddress: devAddress(LOCAL_ROLES.hotWallet),
  }
  const deployed = async (address: string | undefined) =>
    !!address && ((await client.getCode({ address: address as Address })) ?? '0x') !== '0x'
  // A registry of an older version (a data directory from before) is replaced by the current one.
  const currentRegistry = async (address: string | undefined) => {
    const code = address ? await client.getCode({ address: address as Address }) : undefined
    return !!code && code !== '0x' && keccak256(code) === REGISTRY_CODE_HASH
  }
  // What is there already, asked at once. Every transaction then goes out with its own nonce
  // and is mined with the others in one block.
  const [pending, tokenThere, registryThere, vaultThere] = await Promise.all([
    client.getTransactionCount({ address: deployer, blockTag: 'pending' }),
    deployed(knownToken),
    currentRegistry(knownRegistry),
    // A vault belongs to its token: a new token (a reset chain) needs a new vault.
    knownToken ? deployed(knownVault) : false,
  ])
  let nonce = pending
  const sent: Hex[] = []

  const tokenAddress = tokenThere ? (knownToken as Address) : await deployToken()
  // After the token, so the token keeps the address a fresh chain has always given it.
  const porRegistryAddress = registryThere
    ? (knownRegistry as Address)
    : await deploy(porRegistry, [
        network.porRules.minIntervalS,
        network.porRules.maxBlockAge,
        network.porRules.checkWindow,
      ])
  const vaultDeployment = tokenThere && vaultThere ? null : sent.length
  const payoutVaultAddress =
    vaultDeployment === null ? (knownVault as Address) : await deployVault(tokenAddress)
  // Mined now rather than at the next block of a chain with a block time (up to a second later).
  if (sent.length) await anvilRpc(rpcUrl, 'evm_mine')
  let payoutVaultDeployBlock: bigint | null = null
  for (const [i, hash] of sent.entries()) {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 })
    if (receipt.status !== 'success') throw new Error(`local chain setup: ${hash} reverted`)
    if (i === vaultDeployment) payoutVaultDeployBlock = receipt.blockNumber
  }
  return { ...setup, porRegistryAddress, tokenAddress, payoutVaultAddress, payoutVaultDeployBlock }

  /** Deploys the payout vault, paid by the hot wallet, and mints its float. */
  async function deployVault(tokenAddress: Address): Promise<Address> {
    const units = (usdt: string) => parseUnits(usdt, decimals)
    const address = await deploy(payoutVault, [
      tokenAddress,
      devAddress(LOCAL_ROLES.vaultOwner),
      setup.hotWalletAddress,
      units(LOCAL_VAULT.hourlyCap),
      units(LOCAL_VAULT.dailyCap),
    ])
    sent.push(
      await sender().writeContract({
        address: tokenAddress,
        abi: token.abi,
        functionName: 'mint',
        args: [address, units(LOCAL_VAULT.float)],
        nonce: nonce++,
        gas: MINT_GAS,
      }),
    )
    return address
  }

  /** Sends a deployment; its address follows from the deployer's address and the nonce. */
  async function deploy(
    contract: { abi: unknown[]; bytecode: string },
    args: unknown[],
  ): Promise<Address> {
    const address = getContractAddress({ from: deployer, nonce: BigInt(nonce) })
    sent.push(
      await sender().deployContract({
        abi: contract.abi,
        bytecode: contract.bytecode as `0x${string}`,
        args,
        nonce: nonce++,
      }),
    )
    return address
  }

  async function deployToken(): Promise<Address> {
    const tokenAddress = await deploy(token, ['Tether USD', 'USDT', decimals])
    // Demo money: the root's wallet and dev accounts 3–9 (the payout float goes to the vault).
    const grants: [Address, string][] = [
      [deployer, '1000000'],
      ...[3, 4, 5, 6, 7, 8, 9].map((i) => [devAddress(i), '10000'] as [Address, string]),
    ]
    for (const [to, amount] of grants)
      sent.push(
        await sender().writeContract({
          address: tokenAddress,
          abi: token.abi,
          functionName: 'mint',
          args: [to, parseUnits(amount, decimals)],
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

/**
 * Deploys what the local chain needs (once) and points the settings at it: the token, its
 * decimals, the deposit address, and how a wallet on this machine adds the chain. Run by the
 * one process that started the chain.
 */
export async function configureLocalChain(
  settings: SettingsService,
  rpcUrl: string,
  opts: { freshChain?: boolean; network?: LocalNetwork } = {},
): Promise<LocalChainSetup> {
  const network = opts.network ?? LOCAL_NETWORK
  // A fresh chain has nothing deployed, whatever the settings say: its contracts go out without
  // waiting for them (a new database may still be being made).
  const local = opts.freshChain
    ? await prepareLocalChain(rpcUrl, undefined, undefined, undefined, network)
    : await settings
        .get()
        .then((known) =>
          prepareLocalChain(
            rpcUrl,
            known.chainTokenAddress || undefined,
            known.porRegistryAddress || undefined,
            known.payoutVaultAddress || undefined,
            network,
          ),
        )
  const current = await settings.get()
  const wanted = {
    chainTokenAddress: local.tokenAddress,
    chainTokenDecimals: network.tokenDecimals,
    chainDepositAddress: local.depositAddress,
    chainName: 'HOPE Local',
    chainPublicRpcUrl: rpcUrl,
    porRegistryAddress: local.porRegistryAddress,
    payoutVaultAddress: local.payoutVaultAddress,
    ...(local.payoutVaultDeployBlock === null
      ? {}
      : { payoutVaultDeployBlock: Number(local.payoutVaultDeployBlock) }),
  } as const
  for (const [key, value] of Object.entries(wanted) as [keyof typeof wanted, string | number][]) {
    if (String(current[key]).toLowerCase() !== String(value).toLowerCase())
      await settings.set(key, value, 'local-chain')
  }
  // The reserve wallets prove once that the platform holds their keys: again only when the
  // registry or the token moved (the signatures name both) or the proofs are not there.
  const proven =
    current.porRegistryAddress.toLowerCase() === local.porRegistryAddress.toLowerCase() &&
    current.chainTokenAddress.toLowerCase() === local.tokenAddress.toLowerCase() &&
    current.porReserveSignatures.map((s) => s.address.toLowerCase()).join() ===
      [...LOCAL_RESERVES.map((r) => devAddress(r)), local.payoutVaultAddress]
        .map((a) => a.toLowerCase())
        .join()
  if (!proven) await recordReserveOwnership(settings, local, 'local-chain', network.chainId)
  return local
}

/** The local chain's reserve wallets: the deposit address and the hot wallet. */
const LOCAL_RESERVES = [LOCAL_ROLES.deposit, LOCAL_ROLES.hotWallet]

/**
 * Records in the settings (as `by`) each reserve's EIP-191 signature of its ownership message
 * for the local chain's registry and token on chain `chainId` (the message names it): the
 * wallets' own, and the payout vault's by its owner (the vault answers EIP-1271 for its owner's
 * signatures).
 */
export async function recordReserveOwnership(
  settings: SettingsService,
  local: { porRegistryAddress: string; tokenAddress: string; payoutVaultAddress?: string },
  by: string,
  chainId: number = LOCAL_CHAIN_ID,
): Promise<void> {
  const reserves: { address: Address; signer: ReturnType<typeof devAccount> }[] = [
    ...LOCAL_RESERVES.map((role) => ({ address: devAddress(role), signer: devAccount(role) })),
    ...(local.payoutVaultAddress
      ? [
          {
            address: getAddress(local.payoutVaultAddress),
            signer: devAccount(LOCAL_ROLES.vaultOwner),
          },
        ]
      : []),
  ]
  const signed = await Promise.all(
    reserves.map(async ({ address, signer }) => {
      const message = reserveMessage(address, chainId, local.porRegistryAddress, local.tokenAddress)
      return { address, signature: await signer.signMessage({ message }) }
    }),
  )
  await settings.set('porReserveSignatures', signed, by)
}
