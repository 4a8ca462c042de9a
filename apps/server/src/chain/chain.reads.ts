import type { Hash, PublicClient } from 'viem'
import { isAbsentAnswer } from './chain.rules.ts'

/**
 * Reads that tell "the node says it does not exist" (null) from "the node could not be asked"
 * (the error is thrown, so the job's tick is abandoned and retried).
 */

async function absentAsNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read
  } catch (e) {
    if (isAbsentAnswer(e)) return null
    throw e
  }
}

export function blockOrNull(client: PublicClient, blockNumber: bigint) {
  return absentAsNull(client.getBlock({ blockNumber }))
}

export function receiptOrNull(client: PublicClient, hash: string) {
  return absentAsNull(client.getTransactionReceipt({ hash: hash as Hash }))
}

export function transactionOrNull(client: PublicClient, hash: string) {
  return absentAsNull(client.getTransaction({ hash: hash as Hash }))
}

/** The head block; null when the node answers it has none (it is still syncing, or lags). */
export function latestBlockOrNull(client: PublicClient) {
  return absentAsNull(client.getBlock({ blockTag: 'latest' }))
}
