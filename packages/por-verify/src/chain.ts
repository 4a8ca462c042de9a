// The verifier's readers over a viem public client: the anchored snapshot from the registry,
// the reserve balances at block B and a contract reserve's EIP-1271 answer. Nothing here talks
// to HOPE's servers.
import {
  AbiDecodingDataSizeTooSmallError,
  BaseError,
  BlockNotFoundError,
  keccak256,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  erc20Abi,
  type PublicClient,
} from 'viem'
import { porRegistryAbi } from './registry-abi.ts'
import type { AnchoredSnapshot, BlockFacts, ChainReaders } from './verify.ts'

/** EIP-1271: a contract's `isValidSignature`, and the value it answers for a valid signature. */
export const erc1271Abi = [
  {
    type: 'function',
    name: 'isValidSignature',
    stateMutability: 'view',
    inputs: [
      { name: 'hash', type: 'bytes32' },
      { name: 'signature', type: 'bytes' },
    ],
    outputs: [{ name: '', type: 'bytes4' }],
  },
] as const
export const ERC1271_MAGIC_VALUE = '0x1626ba7e'

/**
 * The contract's own "no": a revert, no code at the address (a key's address, or nothing
 * deployed at the block), or an answer too short to be a bytes4. A failure to reach the chain
 * is none of these and is thrown.
 */
const refusedByContract = (error: unknown): boolean =>
  error instanceof BaseError &&
  !!error.walk(
    (e) =>
      e instanceof ContractFunctionRevertedError ||
      e instanceof ContractFunctionZeroDataError ||
      e instanceof AbiDecodingDataSizeTooSmallError,
  )

function factsOf(block: {
  number: bigint | null
  hash: `0x${string}` | null
  timestamp: bigint
}): BlockFacts {
  if (block.number === null || block.hash === null) throw new Error('a pending block')
  return { number: block.number, hash: block.hash, timestamp: block.timestamp }
}

/** Readers for `verifyProof` over any EIP-1193 chain a viem client reaches. */
export function chainReaders(client: PublicClient): Required<ChainReaders> {
  return {
    readChainId: () => client.getChainId(),
    readRegistry: async ({ registry, snapshotId }): Promise<AnchoredSnapshot | undefined> => {
      const snapshot = await client.readContract({
        address: registry,
        abi: porRegistryAbi,
        functionName: 'snapshots',
        args: [snapshotId],
      })
      if (/^0x0*$/.test(snapshot.root)) return undefined
      const reserves = await client.readContract({
        address: registry,
        abi: porRegistryAbi,
        functionName: 'reservesOf',
        args: [snapshotId],
      })
      return { ...snapshot, reserves: [...reserves] }
    },
    readLatestId: ({ registry }) =>
      client.readContract({ address: registry, abi: porRegistryAbi, functionName: 'latestId' }),
    readRules: async ({ registry }) => {
      const [minInterval, maxBlockAge, checkWindow] = await client.readContract({
        address: registry,
        abi: porRegistryAbi,
        functionName: 'rules',
      })
      return { minInterval, maxBlockAge, checkWindow }
    },
    readCodeHash: async ({ address }) => {
      const code = await client.getCode({ address })
      return code && code !== '0x' ? keccak256(code) : undefined
    },
    readHead: async () => factsOf(await client.getBlock({ blockTag: 'latest' })),
    readBlock: async ({ blockNumber }) => {
      try {
        return factsOf(await client.getBlock({ blockNumber }))
      } catch (error) {
        // A node behind (or a load-balanced endpoint answering from one) has no such block yet.
        if (error instanceof BaseError && error.walk((e) => e instanceof BlockNotFoundError))
          return undefined
        throw error
      }
    },
    // One block, one event: bounded whatever the provider's range limit.
    readPublication: async ({ registry, snapshotId, blockNumber }) => {
      const [event] = await client.getContractEvents({
        address: registry,
        abi: porRegistryAbi,
        eventName: 'SnapshotPublished',
        args: { id: snapshotId },
        fromBlock: blockNumber,
        toBlock: blockNumber,
        strict: true,
      })
      if (!event) return undefined
      const { id: _id, reserves, ...rest } = event.args
      return { ...rest, reserves: [...reserves] }
    },
    // A chain younger than the publisher's confirmation depth (a local one just started) may
    // not have the token at B yet: nobody held any then, as the publisher counted it.
    readReserves: async ({ token, addresses, blockNumber }) => {
      const code = await client.getCode({ address: token, blockNumber })
      if (!code || code === '0x') return addresses.map(() => 0n)
      return Promise.all(
        addresses.map((address) =>
          client.readContract({
            address: token,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [address],
            blockNumber,
          }),
        ),
      )
    },
    readContractSignature: async ({ address, hash, signature, blockNumber }) => {
      try {
        const answer = await client.readContract({
          address,
          abi: erc1271Abi,
          functionName: 'isValidSignature',
          args: [hash, signature],
          blockNumber,
        })
        return answer.toLowerCase() === ERC1271_MAGIC_VALUE
      } catch (error) {
        if (refusedByContract(error)) return false
        throw error
      }
    },
  }
}
