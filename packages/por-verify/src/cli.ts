#!/usr/bin/env node
// `npx por-verify proof.json --rpc <url> --registry <0x…> --token <0x…> --address <0x…> --usdt <n> --hope <n>`:
// checks a proof file against the chain alone and prints
// one line per check. Exit status 0 when every check holds, 1 when one fails, 2 on bad usage.
// It talks to the RPC endpoint given and to nothing else.
import fs from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { createPublicClient, http } from 'viem'
import { chainReaders } from './chain.ts'
import { parseProofFile } from './proof.ts'
import {
  CHECK_LABELS,
  DEFAULT_MAX_AGE_HOURS,
  HOPE_DECIMALS,
  USDT_DECIMALS,
  verifyProof,
  type ChainReaders,
  type Check,
} from './verify.ts'

export const USAGE = `Usage: por-verify <proof.json> --rpc <url> --registry <0x…> --token <0x…> --address <0x…> --usdt <amount> --hope <amount>

Checks a HOPE proof of liabilities and reserves against the chain alone: recomputes your
leaves and the root from the file, checks that the registry runs the published code, reads its
newest settled snapshot (root, totals, block, ledger position, reserve set, token and its
decimals) and the rules it enforced from the chain, the reserve balances at its block and again
at the check block the chain picked after the publication, and checks the reserve signatures
(a contract reserve, such as the payout vault, is asked whether it accepts its owner's
signature, EIP-1271). The registry and the token are the official ones (HOPE's README and the
app's verify screen name them), never the file's.

  --rpc <url>            a JSON-RPC endpoint of the proof's chain (any node, not HOPE's)
  --registry <0x…>       the official PorRegistry address
  --token <0x…>          the official USDT token address
  --address <0x…>        your wallet address: the proof must be yours
  --usdt <amount>        your USDT balance at the snapshot as the app showed it (e.g. 12.5)
  --hope <amount>        your HOPE balance at the snapshot as the app showed it
  --max-age-hours <n>    refuse a newest snapshot older than this (default 36)
  -h, --help             this text

Exit status: 0 when every check holds, 1 when any fails, 2 on bad usage, 3 when the answer is
not known yet (the snapshot waits for its check block, or the node is behind: try again).`

export interface CliIo {
  out: (line: string) => void
  /** Readers over an RPC URL; tests pass fakes. */
  readersFor?: (rpc: string) => ChainReaders
  readFile?: (path: string) => Promise<string>
  /** Now in ms since 1970; Date.now() when absent. */
  now?: () => number
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
/** Checks on the file alone: their failure is an answer, whatever the chain. */
const FILE_CHECKS: ReadonlySet<string> = new Set(['leaves', 'sums', 'root', 'totals', 'balance'])

/**
 * An amount as the exact integer at `decimals`: a plain decimal number with at most that many
 * decimals (one more is an error, never rounded), at most 78 digits.
 */
export function parseExactAmount(
  text: string,
  decimals: number,
): { ok: true; units: bigint } | { ok: false; error: string } {
  const m = /^(0|[1-9][0-9]{0,77})(?:\.([0-9]+))?$/.exec(text)
  if (!m) return { ok: false, error: `"${text}" is not a plain decimal amount such as 12.5` }
  const fraction = m[2] ?? ''
  if (fraction.length > decimals)
    return {
      ok: false,
      error: `"${text}" has ${fraction.length} decimals; the currency has ${decimals}`,
    }
  return { ok: true, units: BigInt(m[1]! + fraction.padEnd(decimals, '0')) }
}

/** Runs the command line; answers the exit status. */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        rpc: { type: 'string' },
        registry: { type: 'string' },
        token: { type: 'string' },
        address: { type: 'string' },
        usdt: { type: 'string' },
        hope: { type: 'string' },
        'max-age-hours': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    return usage(io, error instanceof Error ? error.message : String(error))
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.out(USAGE)
    return 0
  }
  if (positionals.length !== 1) return usage(io, 'give exactly one proof file')
  for (const name of ['rpc', 'registry', 'token', 'address', 'usdt', 'hope'] as const)
    if (values[name] === undefined) return usage(io, `--${name} is required`)
  for (const name of ['registry', 'token', 'address'] as const) {
    const value = values[name]
    if (value !== undefined && !ADDRESS.test(value))
      return usage(io, `--${name}: a 0x-prefixed 20-byte address`)
  }
  const usdt = parseExactAmount(values.usdt!, USDT_DECIMALS)
  if (!usdt.ok) return usage(io, `--usdt: ${usdt.error}`)
  const hope = parseExactAmount(values.hope!, HOPE_DECIMALS)
  if (!hope.ok) return usage(io, `--hope: ${hope.error}`)
  const maxAgeHours = Number(values['max-age-hours'] ?? DEFAULT_MAX_AGE_HOURS)
  if (!Number.isFinite(maxAgeHours) || maxAgeHours <= 0 || maxAgeHours > 24 * 366)
    return usage(io, '--max-age-hours: a number of hours such as 36')
  const expected = { address: values.address!, usdt: usdt.units, hope: hope.units }

  let text: string
  try {
    text = await (io.readFile ?? ((p) => fs.readFile(p, 'utf8')))(positionals[0]!)
  } catch (error) {
    return usage(io, `cannot read ${positionals[0]}: ${(error as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  const parsedProof = json === undefined ? undefined : parseProofFile(json)
  if (!parsedProof?.ok) {
    io.out(line({ ok: false, label: 'proof file', detail: parsedProof?.error ?? 'not JSON' }))
    io.out('\nThe file is not a proof this tool can check.')
    return 1
  }
  const proof = parsedProof.proof
  const readers = (io.readersFor ?? rpcReaders)(values.rpc!)
  io.out(
    `HOPE proof of liabilities · snapshot ${proof.snapshotId} · block ${proof.blockNumber} · chain ${proof.chainId}`,
  )
  io.out(`for ${proof.address}\n`)
  io.out(line({ ok: true, label: 'proof file', detail: `well-formed, version ${proof.version}` }))
  const result = await verifyProof(proof, readers, {
    expected,
    pinned: { registry: values.registry!, token: values.token! },
    maxAgeHours,
    now: (io.now ?? Date.now)(),
  })
  for (const check of result.checks) io.out(line({ ...check, label: labelOf(check) }))
  const failed = result.checks.filter((c) => !c.ok)
  if (result.pending !== undefined && failed.length === 0)
    io.out(`\nSnapshot ${result.pending} is published and waits for its check block.`)
  // Not an answer yet, when only time stands in the way: no check on the file failed.
  const fileFailed = failed.some((c) => FILE_CHECKS.has(c.id))
  if (result.waiting && !fileFailed) {
    io.out(
      result.waiting.reason === 'settling'
        ? `\nNot known yet: the reserves of snapshot ${proof.snapshotId} are counted again at block ${result.waiting.checkBlock}; the chain is at ${result.waiting.head}. Run again once it has passed.`
        : `\nNot known yet: the node is behind block ${result.waiting.block} (its newest is ${result.waiting.head}). Run again, or give another --rpc.`,
    )
    return 3
  }
  io.out(
    failed.length === 0
      ? `\nAll ${result.checks.length + 1} checks hold.`
      : `\n${failed.length} of ${result.checks.length + 1} checks failed.`,
  )
  return failed.length === 0 ? 0 : 1
}

function rpcReaders(rpc: string): ChainReaders {
  return chainReaders(createPublicClient({ transport: http(rpc, { retryCount: 1 }) }))
}

const labelOf = (check: Check) => CHECK_LABELS[check.id]

function line(check: { ok: boolean; label: string; detail: string }): string {
  return `  ${check.ok ? '✓' : '✗'} ${check.label.padEnd(20)} ${check.detail}`
}

function usage(io: CliIo, problem: string): number {
  io.out(`por-verify: ${problem}\n`)
  io.out(USAGE)
  return 2
}

if (import.meta.main) {
  const status = await runCli(process.argv.slice(2), { out: (l) => console.info(l) })
  process.exitCode = status
}
