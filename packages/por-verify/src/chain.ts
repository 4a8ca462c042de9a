// The verifier's readers over a viem public client: the anchored snapshot from the registry,
// the reserve balances at block B and a contract reserve's EIP-1271 answer. Nothing here talks
// to HOPE's servers.
import {
  AbiDecodingDataSizeTooSmallError,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  erc20Abi,
  type PublicClient,
} from 'viem'
import { porRegistryAbi } from './registry-abi.ts'
import type { AnchoredSnapshot, ChainReaders } from './verify.ts'

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

/** Readers for `verifyProof` over any EIP-1193 chain a viem client reaches. */
export function chainReaders(client: PublicClient): Required<ChainReaders> {
  return {
    readChainId: () => client.getChainId(),
    readRegistry: async ({ registry, snapshotId }): Promise<AnchoredSnapshot | undefined> => {
      const [root, totalUsdt, totalHope, blockNumber, publishedAt, token, tokenDecimals] =
        await client.readContract({
          address: registry,
          abi: porRegistryAbi,
          functionName: 'snapshots',
          args: [snapshotId],
        })
      if (/^0x0*$/.test(root)) return undefined
      const reserves = await client.readContract({
        address: registry,
        abi: porRegistryAbi,
        functionName: 'reservesOf',
        args: [snapshotId],
      })
      return {
        root,
        totalUsdt,
        totalHope,
        blockNumber,
        publishedAt,
        token,
        tokenDecimals,
        reserves: [...reserves],
      }
    },
    readLatestId: ({ registry }) =>
      client.readContract({ address: registry, abi: porRegistryAbi, functionName: 'latestId' }),
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
