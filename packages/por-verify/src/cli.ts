#!/usr/bin/env node
// `npx por-verify proof.json --rpc <url> --registry <0x…> --token <0x…> --address <0x…> --usdt <n> --hope <n>`:
// checks a proof file against the chain alone and prints
// one line per check. Exit status 0 when every check holds, 1 when one fails, 2 on bad usage.
// It talks to the RPC endpoint given and to nothing else.
import fs from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { createPublicClient, http } from 'viem'
import { chainReaders } from './chain.ts'
import { parseProofFile, type ProofFile } from './proof.ts'
import {
  CHECK_LABELS,
  DEFAULT_MAX_AGE_HOURS,
  HOPE_DECIMALS,
  USDT_DECIMALS,
  verifyProof,
  type ChainReaders,
  type Check,
  type VerifyResult,
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

/** What the command line asks for, checked: the proof file, the chain, and what to expect. */
export interface CliOptions {
  file: string
  rpc: string
  registry: string
  token: string
  expected: { address: string; usdt: bigint; hope: bigint }
  maxAgeHours: number
}

/** Runs the command line; answers the exit status. */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCliArgs(args)
  if (parsed.kind === 'usage') return usage(io, parsed.problem)
  if (parsed.kind === 'help') {
    io.out(USAGE)
    return 0
  }
  const { options } = parsed
  const loaded = await loadProof(options.file, io)
  if (loaded.kind === 'unreadable') return usage(io, loaded.problem)
  if (loaded.kind === 'invalid') {
    io.out(line({ ok: false, label: 'proof file', detail: loaded.error }))
    io.out('\nThe file is not a proof this tool can check.')
    return 1
  }
  const proof = loaded.proof
  const readers = (io.readersFor ?? rpcReaders)(options.rpc)
  io.out(
    `HOPE proof of liabilities · snapshot ${proof.snapshotId} · block ${proof.blockNumber} · chain ${proof.chainId}`,
  )
  io.out(`for ${proof.address}\n`)
  io.out(line({ ok: true, label: 'proof file', detail: `well-formed, version ${proof.version}` }))
  const result = await verifyProof(proof, readers, {
    expected: options.expected,
    pinned: { registry: options.registry, token: options.token },
    maxAgeHours: options.maxAgeHours,
    now: (io.now ?? Date.now)(),
  })
  return reportResult(io, proof, result)
}

/** The command line read and checked: its options, a request for help, or what is wrong. */
export function parseCliArgs(
  args: string[],
):
  { kind: 'options'; options: CliOptions } | { kind: 'help' } | { kind: 'usage'; problem: string } {
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
    return { kind: 'usage', problem: error instanceof Error ? error.message : String(error) }
  }
  const { values, positionals } = parsed
  if (values.help) return { kind: 'help' }
  const problem = (text: string) => ({ kind: 'usage' as const, problem: text })
  if (positionals.length !== 1) return problem('give exactly one proof file')
  for (const name of ['rpc', 'registry', 'token', 'address', 'usdt', 'hope'] as const)
    if (values[name] === undefined) return problem(`--${name} is required`)
  for (const name of ['registry', 'token', 'address'] as const) {
    const value = values[name]
    if (value !== undefined && !ADDRESS.test(value))
      return problem(`--${name}: a 0x-prefixed 20-byte address`)
  }
  const usdt = parseExactAmount(values.usdt!, USDT_DECIMALS)
  if (!usdt.ok) return problem(`--usdt: ${usdt.error}`)
  const hope = parseExactAmount(values.hope!, HOPE_DECIMALS)
  if (!hope.ok) return problem(`--hope: ${hope.error}`)
  const maxAgeHours = Number(values['max-age-hours'] ?? DEFAULT_MAX_AGE_HOURS)
  if (!Number.isFinite(maxAgeHours) || maxAgeHours <= 0 || maxAgeHours > 24 * 366)
    return problem('--max-age-hours: a number of hours such as 36')
  return {
    kind: 'options',
    options: {
      file: positionals[0]!,
      rpc: values.rpc!,
      registry: values.registry!,
      token: values.token!,
      expected: { address: values.address!, usdt: usdt.units, hope: hope.units },
      maxAgeHours,
    },
  }
}

/** The proof file read and parsed: the proof, a file that cannot be read, or not a proof. */
export async function loadProof(
  file: string,
  io: Pick<CliIo, 'readFile'>,
): Promise<
  | { kind: 'proof'; proof: ProofFile }
  | { kind: 'unreadable'; problem: string }
  | { kind: 'invalid'; error: string }
> {
  let text: string
  try {
    text = await (io.readFile ?? ((p) => fs.readFile(p, 'utf8')))(file)
  } catch (error) {
    return { kind: 'unreadable', problem: `cannot read ${file}: ${(error as Error).message}` }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  const parsedProof = json === undefined ? undefined : parseProofFile(json)
  if (!parsedProof?.ok) return { kind: 'invalid', error: parsedProof?.error ?? 'not JSON' }
  return { kind: 'proof', proof: parsedProof.proof }
}

/**
 * Prints each check and the verdict; answers the exit status: 0 all hold, 1 one failed, 3 not
 * known yet (only time stands in the way: no check on the file failed).
 */
export function reportResult(
  io: Pick<CliIo, 'out'>,
  proof: Pick<ProofFile, 'snapshotId'>,
  result: VerifyResult,
): number {
  for (const check of result.checks) io.out(line({ ...check, label: labelOf(check) }))
  const failed = result.checks.filter((c) => !c.ok)
  if (result.pending !== undefined && failed.length === 0)
    io.out(`\nSnapshot ${result.pending} is published and waits for its check block.`)
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
