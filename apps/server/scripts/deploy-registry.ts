// `npm run chain:deploy-registry -- --rpc <url> --min-interval-hours <h> --max-block-age <blocks>
//   --check-window <blocks> --key-file <publisher key file>`: deploys the proof-of-liabilities
// registry (contracts/PorRegistry.sol) on a real network. The key that deploys it is the only one
// that can publish: the publisher's (POR_PUBLISHER_KEY_FILE). Its rules are fixed for its
// lifetime: snapshots at least --min-interval-hours apart (verifiers refuse less than 20), block
// B at most --max-block-age blocks old at a publication, and the check block within
// --check-window blocks after it. Prints the setting to make: porRegistryAddress.
import { parseArgs } from 'node:util'
import { createPublicClient, createWalletClient, http, keccak256, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { DEFAULT_MIN_INTERVAL_HOURS, REGISTRY_CODE_HASH } from '@hope/por-verify'
import registry from '../src/chain/contracts/PorRegistry.json' with { type: 'json' }
import { readKeyFile } from '../src/config.ts'

const usage =
  'usage: npm run chain:deploy-registry -- --rpc <url> --min-interval-hours <hours> ' +
  '--max-block-age <blocks> --check-window <blocks> --key-file <file>'

function fail(message: string, code = 2): never {
  console.error(message)
  process.exit(code)
}

let args
try {
  args = parseArgs({
    options: {
      rpc: { type: 'string' },
      'min-interval-hours': { type: 'string' },
      'max-block-age': { type: 'string' },
      'check-window': { type: 'string' },
      'key-file': { type: 'string' },
    },
  }).values
} catch (e) {
  fail(`${(e as Error).message}\n${usage}`)
}
const { rpc } = args
const hours = args['min-interval-hours']
const maxAge = args['max-block-age']
const window = args['check-window']
const keyFile = args['key-file']
if (!rpc || !hours || !maxAge || !window || !keyFile) fail(usage)
if (!/^\d{1,4}(\.\d{1,2})?$/.test(hours) || Number(hours) < DEFAULT_MIN_INTERVAL_HOURS)
  fail(
    `--min-interval-hours must be at least ${DEFAULT_MIN_INTERVAL_HOURS}: verifiers refuse a registry that publishes more often, got "${hours}"`,
  )
const blocks = (value: string, name: string, max: number) => {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > max)
    fail(`${name} must be a number of blocks from 1 to ${max}, got "${value}"`)
  return BigInt(value)
}
const maxBlockAge = blocks(maxAge, '--max-block-age', 100_000)
const checkWindow = blocks(window, '--check-window', 100_000)
const minInterval = BigInt(Math.round(Number(hours) * 3600))

let key: Hex
try {
  key = readKeyFile(keyFile, '--key-file')
} catch (e) {
  fail((e as Error).message)
}
const publisher = privateKeyToAccount(key)

const client = createPublicClient({ transport: http(rpc, { timeout: 30_000 }) })
const chainId = await client
  .getChainId()
  .catch((e: Error) => fail(`the chain at --rpc does not answer: ${e.message.split('\n')[0]}`))
const wallet = createWalletClient({ account: publisher, transport: http(rpc, { timeout: 30_000 }) })
const chain = { id: chainId } as Parameters<typeof wallet.deployContract>[0]['chain']
const hash = await wallet.deployContract({
  abi: registry.abi,
  bytecode: registry.bytecode as Hex,
  args: [minInterval, maxBlockAge, checkWindow],
  chain,
})
console.info(`deployment sent: ${hash}; waiting for its receipt`)
const receipt = await client.waitForTransactionReceipt({ hash, timeout: 600_000 })
if (receipt.status !== 'success' || !receipt.contractAddress)
  fail(`the deployment reverted: ${hash}`, 1)
// The code on chain is the code verifiers pin: say so, or say it is not.
const code = await client.getCode({ address: receipt.contractAddress })
const published = !!code && keccak256(code) === REGISTRY_CODE_HASH
console.info(
  [
    `proof-of-liabilities registry ${receipt.contractAddress} on chain ${chainId}, block ${receipt.blockNumber}`,
    `  publisher ${publisher.address}; snapshots at least ${hours} h apart, block B at most ${maxBlockAge} blocks old, check block within ${checkWindow} blocks`,
    published
      ? `  its code hashes to ${REGISTRY_CODE_HASH}, the hash @hope/por-verify pins`
      : '  WARNING: its code does not hash to the one @hope/por-verify pins: verifiers will refuse it',
    'Set in the console (Settings):',
    `  porRegistryAddress = ${receipt.contractAddress}`,
    'Then have each reserve sign its statement for this registry (docs/deployment.md).',
  ].join('\n'),
)
if (!published) process.exitCode = 1
