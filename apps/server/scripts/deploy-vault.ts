// `npm run chain:deploy-vault -- --rpc <url> --token <address> --owner <address> --payer <address>
//   --hourly-cap <USDT> --daily-cap <USDT> --key-file <deployer key file>`: deploys the payout
// vault (contracts/PayoutVault.sol) on a real network. The owner should be a key kept offline
// (a hardware wallet or a multisig): it pauses the vault, rotates the payer, changes the caps and
// moves the float to a cold address. The payer is the hot wallet the signer holds. The deployer
// key (a 0600 file) pays for the deployment only and has no power over the vault afterwards.
// Prints the settings to make: payoutVaultAddress and payoutVaultDeployBlock.
import { parseArgs } from 'node:util'
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  http,
  isAddress,
  parseUnits,
  type Address,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import vault from '../src/chain/contracts/PayoutVault.json' with { type: 'json' }
import { readKeyFile } from '../src/config.ts'

const usage =
  'usage: npm run chain:deploy-vault -- --rpc <url> --token <address> --owner <address> ' +
  '--payer <address> --hourly-cap <USDT> --daily-cap <USDT> --key-file <file>'

function fail(message: string, code = 2): never {
  console.error(message)
  process.exit(code)
}

let args
try {
  args = parseArgs({
    options: {
      rpc: { type: 'string' },
      token: { type: 'string' },
      owner: { type: 'string' },
      payer: { type: 'string' },
      'hourly-cap': { type: 'string' },
      'daily-cap': { type: 'string' },
      'key-file': { type: 'string' },
    },
  }).values
} catch (e) {
  fail(`${(e as Error).message}\n${usage}`)
}
const { rpc, token, owner, payer } = args
const hourly = args['hourly-cap']
const daily = args['daily-cap']
const keyFile = args['key-file']
if (!rpc || !token || !owner || !payer || !hourly || !daily || !keyFile) fail(usage)
for (const [name, value] of [
  ['--token', token],
  ['--owner', owner],
  ['--payer', payer],
] as const)
  if (!isAddress(value, { strict: false })) fail(`${name} must be an address, got "${value}"`)
if (getAddress(owner) === getAddress(payer))
  fail('--owner and --payer must be different keys: the payer is online, the owner is not')
const usdt = /^\d{1,15}(\.\d{1,18})?$/
if (!usdt.test(hourly) || !usdt.test(daily))
  fail(`the caps must be USDT amounts, got "${hourly}" and "${daily}"`)

let key: Hex
try {
  key = readKeyFile(keyFile, '--key-file')
} catch (e) {
  fail((e as Error).message)
}
const deployer = privateKeyToAccount(key)
if ([owner, payer].some((a) => getAddress(a) === deployer.address))
  fail('the deployer key must be neither the owner nor the payer')

const client = createPublicClient({ transport: http(rpc, { timeout: 30_000 }) })
const chainId = await client
  .getChainId()
  .catch((e: Error) => fail(`the chain at --rpc does not answer: ${e.message.split('\n')[0]}`))
const decimals = await client
  .readContract({ address: token as Address, abi: erc20Abi, functionName: 'decimals' })
  .catch(() => fail(`${token} answers no decimals(): is it the USDT contract on chain ${chainId}?`))
const hourlyUnits = parseUnits(hourly, decimals)
const dailyUnits = parseUnits(daily, decimals)
if (hourlyUnits > dailyUnits) fail('the hourly cap is above the daily cap')

const wallet = createWalletClient({ account: deployer, transport: http(rpc, { timeout: 30_000 }) })
const chain = { id: chainId } as Parameters<typeof wallet.deployContract>[0]['chain']
const hash = await wallet.deployContract({
  abi: vault.abi,
  bytecode: vault.bytecode as Hex,
  args: [getAddress(token), getAddress(owner), getAddress(payer), hourlyUnits, dailyUnits],
  chain,
})
console.info(`deployment sent: ${hash}; waiting for its receipt`)
const receipt = await client.waitForTransactionReceipt({ hash, timeout: 600_000 })
if (receipt.status !== 'success' || !receipt.contractAddress)
  fail(`the deployment reverted: ${hash}`, 1)
console.info(
  [
    `payout vault ${receipt.contractAddress} on chain ${chainId}, block ${receipt.blockNumber}`,
    `  token ${getAddress(token)} (${decimals} decimals), owner ${getAddress(owner)}, payer ${getAddress(payer)}`,
    `  caps ${hourly} USDT an hour, ${daily} USDT a day`,
    'Set in the console (Settings):',
    `  payoutVaultAddress = ${receipt.contractAddress}`,
    `  payoutVaultDeployBlock = ${receipt.blockNumber}`,
    'Then move the payout float to the vault, and have the owner sign the reserve statement',
    '(docs/deployment.md, "The payout vault").',
  ].join('\n'),
)
