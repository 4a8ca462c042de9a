// `npm run chain:deploy-vault -- --rpc <url> --token <address> --owner <address> --payer <address>
//   --hourly-cap <USDT> --daily-cap <USDT> --key-file <deployer key file>`: deploys the payout
// vault (contracts/PayoutVault.sol) on a real network. The owner should be a key kept offline
// (a hardware wallet or a multisig): it pauses the vault, rotates the payer, changes the caps and
// moves the float to a cold address. The payer is the hot wallet the signer holds. The deployer
// key (a 0600 file) pays for the deployment only and has no power over the vault afterwards.
// Prints the settings to make: payoutVaultAddress and payoutVaultDeployBlock.
import { erc20Abi, getAddress, isAddress, parseUnits, type Address } from 'viem'
import vault from '../src/chain/contracts/PayoutVault.json' with { type: 'json' }
import { chainAt, deployerKey, fail, requiredArgs } from './deploy-support.ts'

const usage =
  'usage: npm run chain:deploy-vault -- --rpc <url> --token <address> --owner <address> ' +
  '--payer <address> --hourly-cap <USDT> --daily-cap <USDT> --key-file <file>'

const args = requiredArgs(
  ['rpc', 'token', 'owner', 'payer', 'hourly-cap', 'daily-cap', 'key-file'],
  usage,
)
const { token, owner, payer } = args
const hourly = args['hourly-cap']
const daily = args['daily-cap']
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

const deployer = deployerKey(args['key-file'])
if ([owner, payer].some((a) => getAddress(a) === deployer.address))
  fail('the deployer key must be neither the owner nor the payer')

const { client, chainId, deploy } = await chainAt(args.rpc, deployer)
const decimals = await client
  .readContract({ address: token as Address, abi: erc20Abi, functionName: 'decimals' })
  .catch(() => fail(`${token} answers no decimals(): is it the USDT contract on chain ${chainId}?`))
const hourlyUnits = parseUnits(hourly, decimals)
const dailyUnits = parseUnits(daily, decimals)
if (hourlyUnits > dailyUnits) fail('the hourly cap is above the daily cap')

const receipt = await deploy(vault, [
  getAddress(token),
  getAddress(owner),
  getAddress(payer),
  hourlyUnits,
  dailyUnits,
])
console.info(
  [
    `payout vault ${receipt.address} on chain ${chainId}, block ${receipt.blockNumber}`,
    `  token ${getAddress(token)} (${decimals} decimals), owner ${getAddress(owner)}, payer ${getAddress(payer)}`,
    `  caps ${hourly} USDT an hour, ${daily} USDT a day`,
    'Set in the console (Settings):',
    `  payoutVaultAddress = ${receipt.address}`,
    `  payoutVaultDeployBlock = ${receipt.blockNumber}`,
    'Then move the payout float to the vault, and have the owner sign the reserve statement',
    '(docs/deployment.md, "The payout vault").',
  ].join('\n'),
)
