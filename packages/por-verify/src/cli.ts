#!/usr/bin/env node
// `npx por-verify proof.json --rpc <url>`: checks a proof file against the chain alone and prints
// one line per check. Exit status 0 when every check holds, 1 when one fails, 2 on bad usage.
// It talks to the RPC endpoint given and to nothing else.
import fs from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { createPublicClient, http, parseUnits } from 'viem'
import { chainReaders } from './chain.ts'
import { parseProofFile } from './proof.ts'
import {
  CHECK_LABELS,
  HOPE_DECIMALS,
  USDT_DECIMALS,
  verifyProof,
  type ChainReaders,
  type Check,
} from './verify.ts'

export const USAGE = `Usage: por-verify <proof.json> --rpc <url> [--address <0x…>] [--usdt <amount>] [--hope <amount>]

Checks a HOPE proof of liabilities and reserves against the chain alone: recomputes your
leaves and the root from the file, reads the anchored root and totals from the registry and
the reserve balances at the snapshot's block, and checks the reserve signatures.

  --rpc <url>       a JSON-RPC endpoint of the proof's chain (any node, not HOPE's)
  --address <0x…>   your wallet address, checked against the proof's
  --usdt <amount>   your USDT balance at the snapshot as you know it (e.g. 12.5)
  --hope <amount>   your HOPE balance at the snapshot as you know it
  -h, --help        this text

Exit status: 0 when every check holds, 1 when any fails, 2 on bad usage.`

export interface CliIo {
  out: (line: string) => void
  /** Readers over an RPC URL; tests pass fakes. */
  readersFor?: (rpc: string) => ChainReaders
  readFile?: (path: string) => Promise<string>
}

const AMOUNT = /^[0-9]+(\.[0-9]+)?$/

/** Runs the command line; answers the exit status. */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        rpc: { type: 'string' },
        address: { type: 'string' },
        usdt: { type: 'string' },
        hope: { type: 'string' },
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
  if (!values.rpc) return usage(io, '--rpc <url> is required')
  for (const [name, value] of [
    ['usdt', values.usdt],
    ['hope', values.hope],
  ] as const)
    if (value !== undefined && !AMOUNT.test(value))
      return usage(io, `--${name}: a decimal amount such as 12.5`)
  if (values.address !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(values.address))
    return usage(io, '--address: a 0x-prefixed 20-byte address')
  const expected = {
    ...(values.address === undefined ? {} : { address: values.address }),
    ...(values.usdt === undefined ? {} : { usdt: parseUnits(values.usdt, USDT_DECIMALS) }),
    ...(values.hope === undefined ? {} : { hope: parseUnits(values.hope, HOPE_DECIMALS) }),
  }

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
  const readers = (io.readersFor ?? rpcReaders)(values.rpc)
  io.out(
    `HOPE proof of liabilities · snapshot ${proof.snapshotId} · block ${proof.blockNumber} · chain ${proof.chainId}`,
  )
  io.out(`for ${proof.address}\n`)
  io.out(line({ ok: true, label: 'proof file', detail: `well-formed, version ${proof.version}` }))
  const result = await verifyProof(proof, readers, {
    ...(Object.keys(expected).length ? { expected } : {}),
  })
  for (const check of result.checks) io.out(line({ ...check, label: labelOf(check) }))
  const failed = result.checks.filter((c) => !c.ok).length
  io.out(
    failed === 0
      ? `\nAll ${result.checks.length + 1} checks hold.`
      : `\n${failed} of ${result.checks.length + 1} checks failed.`,
  )
  return failed === 0 ? 0 : 1
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
