// `npm run chain:deploy-registry -- --rpc <url> --min-interval-hours <h> --max-block-age <blocks>
//   --check-window <blocks> --key-file <publisher key file>`: deploys the proof-of-liabilities
// registry (contracts/PorRegistry.sol) on a real network. The key that deploys it is the only one
// that can publish: the publisher's (POR_PUBLISHER_KEY_FILE). Its rules are fixed for its
// lifetime: snapshots at least --min-interval-hours apart (verifiers refuse less than 20), block
// B at most --max-block-age blocks old at a publication, and the check block within
// --check-window blocks after it. Prints the setting to make: porRegistryAddress.
import { keccak256 } from 'viem'
import { DEFAULT_MIN_INTERVAL_HOURS, REGISTRY_CODE_HASH } from '@hope/por-verify'
import registry from '../src/chain/contracts/PorRegistry.json' with { type: 'json' }
import { chainAt, deployerKey, fail, requiredArgs } from './deploy-support.ts'

const usage =
  'usage: npm run chain:deploy-registry -- --rpc <url> --min-interval-hours <hours> ' +
  '--max-block-age <blocks> --check-window <blocks> --key-file <file>'

const args = requiredArgs(
  ['rpc', 'min-interval-hours', 'max-block-age', 'check-window', 'key-file'],
  usage,
)
const hours = args['min-interval-hours']
if (!/^\d{1,4}(\.\d{1,2})?$/.test(hours) || Number(hours) < DEFAULT_MIN_INTERVAL_HOURS)
  fail(
    `--min-interval-hours must be at least ${DEFAULT_MIN_INTERVAL_HOURS}: verifiers refuse a registry that publishes more often, got "${hours}"`,
  )
const blocks = (value: string, name: string, max: number) => {
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > max)
    fail(`${name} must be a number of blocks from 1 to ${max}, got "${value}"`)
  return BigInt(value)
}
const maxBlockAge = blocks(args['max-block-age'], '--max-block-age', 100_000)
const checkWindow = blocks(args['check-window'], '--check-window', 100_000)
const minInterval = BigInt(Math.round(Number(hours) * 3600))
const publisher = deployerKey(args['key-file'])

const { client, chainId, deploy } = await chainAt(args.rpc, publisher)
const receipt = await deploy(registry, [minInterval, maxBlockAge, checkWindow])
// The code on chain is the code verifiers pin: say so, or say it is not.
const code = await client.getCode({ address: receipt.address })
const published = !!code && keccak256(code) === REGISTRY_CODE_HASH
console.info(
  [
    `proof-of-liabilities registry ${receipt.address} on chain ${chainId}, block ${receipt.blockNumber}`,
    `  publisher ${publisher.address}; snapshots at least ${hours} h apart, block B at most ${maxBlockAge} blocks old, check block within ${checkWindow} blocks`,
    published
      ? `  its code hashes to ${REGISTRY_CODE_HASH}, the hash @hope/por-verify pins`
      : '  WARNING: its code does not hash to the one @hope/por-verify pins: verifiers will refuse it',
    'Set in the console (Settings):',
    `  porRegistryAddress = ${receipt.address}`,
    'Then have each reserve sign its statement for this registry (docs/deployment.md).',
  ].join('\n'),
)
if (!published) process.exitCode = 1
