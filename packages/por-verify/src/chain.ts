// The verifier's readers over a viem public client: the anchored snapshot from the registry and
// the reserve balances at block B. Nothing here talks to HOPE's servers.
import { erc20Abi, type PublicClient } from 'viem'
import { porRegistryAbi } from './registry-abi.ts'
import type { AnchoredSnapshot, ChainReaders } from './verify.ts'

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
  }
}
