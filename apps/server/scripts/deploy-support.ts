// What the deployment commands share: refusing with a sentence (exit 2 on bad usage), their
// arguments, the deployer's key from a 0600 file, and the chain they deploy on.
import { parseArgs } from 'node:util'
import { createPublicClient, createWalletClient, http, type Hex } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { readKeyFile } from '../src/config.ts'

/** Says why and stops: 2 for bad usage, 1 when the chain refused. */
export function fail(message: string, code = 2): never {
  console.error(message)
  process.exit(code)
}

/** The command's `--name value` options, every one required; the usage line otherwise. */
export function requiredArgs<const N extends string>(names: readonly N[], usage: string) {
  let values: Record<string, string | undefined>
  try {
    values = parseArgs({
      options: Object.fromEntries(names.map((n) => [n, { type: 'string' as const }])),
    }).values as Record<string, string | undefined>
  } catch (e) {
    fail(`${(e as Error).message}\n${usage}`)
  }
  for (const name of names) if (!values[name]) fail(usage)
  return values as Record<N, string>
}

/** The deployer's key from `--key-file` (a file only its owner can read). */
export function deployerKey(file: string): PrivateKeyAccount {
  let key: Hex
  try {
    key = readKeyFile(file, '--key-file')
  } catch (e) {
    fail((e as Error).message)
  }
  return privateKeyToAccount(key)
}

/** The chain at `rpc`: its id, a reader, and a wallet of `account` that deploys on it. */
export async function chainAt(rpc: string, account: PrivateKeyAccount) {
  const client = createPublicClient({ transport: http(rpc, { timeout: 30_000 }) })
  const chainId = await client
    .getChainId()
    .catch((e: Error) => fail(`the chain at --rpc does not answer: ${e.message.split('\n')[0]}`))
  const wallet = createWalletClient({ account, transport: http(rpc, { timeout: 30_000 }) })
  const chain = { id: chainId } as Parameters<typeof wallet.deployContract>[0]['chain']
  /** Deploys, waits for the receipt, and answers the contract's address and block. */
  const deploy = async (contract: { abi: unknown[]; bytecode: string }, args: unknown[]) => {
    const hash = await wallet.deployContract({
      abi: contract.abi,
      bytecode: contract.bytecode as Hex,
      args,
      chain,
    })
    console.info(`deployment sent: ${hash}; waiting for its receipt`)
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 600_000 })
    if (receipt.status !== 'success' || !receipt.contractAddress)
      fail(`the deployment reverted: ${hash}`, 1)
    return { address: receipt.contractAddress, blockNumber: receipt.blockNumber }
  }
  return { client, chainId, deploy }
}
