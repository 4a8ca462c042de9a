import { execFile } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { decodeFunctionData, encodeFunctionResult, erc20Abi, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildSnapshotTree } from './build.ts'
import { runCli } from './cli.ts'
import type { ProofFile } from './proof.ts'
import { porRegistryAbi } from './registry-abi.ts'
import {
  BLOCK,
  CHAIN_ID,
  fakeChain,
  proofOf,
  REGISTRY,
  SECRET,
  signReserves,
  TOKEN,
} from './testing.ts'

const accounts = [
  { address: `0x${'0b'.repeat(20)}`, usdt: 12_500_000n, hope: 3n * 10n ** 18n },
  { address: `0x${'0c'.repeat(20)}`, usdt: 7_000_000n, hope: 0n },
]
const tree = buildSnapshotTree({ snapshotId: 11n, secret: SECRET, accounts })
let proof: ProofFile
let dir: string

beforeAll(async () => {
  proof = proofOf(tree, accounts[0]!.address, await signReserves())
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'por-verify-'))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const write = (name: string, content: unknown) => {
  const file = path.join(dir, name)
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  return file
}

async function run(args: string[], chain = fakeChain(tree)) {
  const lines: string[] = []
  const status = await runCli(args, { out: (l) => lines.push(l), readersFor: () => chain })
  return { status, text: lines.join('\n') }
}

describe('por-verify', () => {
  test('prints a tick per check and exits 0 when all hold', async () => {
    const { status, text } = await run([
      write('ok.json', proof),
      '--rpc',
      'http://chain',
      '--usdt',
      '12.5',
      '--hope',
      '3',
    ])
    expect(status).toBe(0)
    expect(text).toMatch(/✓ balance +12\.5 USDT and 3 HOPE in \d part/)
    expect(text).toMatch(/✓ reserves cover USDT +19\.5 USDT held at block 120/)
    expect(text).not.toMatch(/✗/)
    expect(text).toMatch(/All 10 checks hold\./)
  })

  test('exits 1 and marks the failing check when the chain disagrees', async () => {
    const short = fakeChain(tree, { reserves: 1_000_000n })
    const { status, text } = await run([write('ok.json', proof), '--rpc', 'http://chain'], short)
    expect(status).toBe(1)
    expect(text).toMatch(
      /✗ reserves cover USDT +1 USDT held at block 120 by 2 address\(es\) < liabilities 19\.5 USDT/,
    )
    expect(text).toMatch(/1 of 10 checks failed\./)
  })

  test('exits 1 on a balance other than the one the user knows, and on a malformed file', async () => {
    expect((await run([write('ok.json', proof), '--rpc', 'x', '--usdt', '13'])).status).toBe(1)
    const bad = await run([write('bad.json', { ...proof, extra: true }), '--rpc', 'x'])
    expect(bad.status).toBe(1)
    expect(bad.text).toMatch(/✗ proof file +\$\.extra: expected no such field/)
    expect((await run([write('text.json', 'not json'), '--rpc', 'x'])).status).toBe(1)
  })

  test('exits 2 on bad usage, 0 on --help', async () => {
    expect((await run([])).status).toBe(2)
    expect((await run([write('ok.json', proof)])).status).toBe(2)
    expect((await run([write('ok.json', proof), '--rpc', 'x', '--usdt', '1,5'])).status).toBe(2)
    expect((await run([write('ok.json', proof), '--rpc', 'x', '--bogus'])).status).toBe(2)
    expect((await run([path.join(dir, 'missing.json'), '--rpc', 'x'])).status).toBe(2)
    const help = await run(['--help'])
    expect(help.status).toBe(0)
    expect(help.text).toMatch(/^Usage: por-verify <proof.json> --rpc <url>/)
  })

  // The command as a user runs it: a separate process, over JSON-RPC, to a node that knows the
  // registry and the token (here a small fake answering eth_chainId and eth_call).
  test('runs as a process against a JSON-RPC endpoint', async () => {
    const calls: string[] = []
    const server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        const { id, method, params } = JSON.parse(body)
        calls.push(method)
        let result: unknown
        if (method === 'eth_chainId') result = toHex(CHAIN_ID)
        else if (method === 'eth_call') {
          const [{ to, data }, block] = params
          const call = decodeFunctionData({ abi: [...porRegistryAbi, ...erc20Abi], data })
          if (to === REGISTRY && call.functionName === 'snapshots')
            result = encodeFunctionResult({
              abi: porRegistryAbi,
              functionName: 'snapshots',
              result: [tree.root, tree.totals.usdt, tree.totals.hope, BLOCK, 1_763_779_200n],
            })
          else if (to === TOKEN && call.functionName === 'balanceOf' && block === toHex(BLOCK))
            result = encodeFunctionResult({
              abi: erc20Abi,
              functionName: 'balanceOf',
              result: 10_000_000n,
            })
        }
        res.setHeader('content-type', 'application/json')
        res.end(
          JSON.stringify(
            result === undefined
              ? { jsonrpc: '2.0', id, error: { code: -32601, message: `unexpected ${method}` } }
              : { jsonrpc: '2.0', id, result },
          ),
        )
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const rpc = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const file = write('rpc.json', proof)
      const cli = path.join(import.meta.dirname, 'cli.ts')
      const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>(
        (resolve) => {
          const child = execFile(process.execPath, [cli, file, '--rpc', rpc], (_, stdout) =>
            resolve({ code: child.exitCode, stdout }),
          )
        },
      )
      expect(stdout).toMatch(
        /✓ anchored on chain +registry 0x00000000…0000a1, snapshot 11: root, totals and block 120 match/,
      )
      expect(stdout).toMatch(/✓ reserves cover USDT +20 USDT held at block 120/)
      expect(stdout).toMatch(/All 10 checks hold\./)
      expect(code).toBe(0)
      expect(new Set(calls)).toEqual(new Set(['eth_chainId', 'eth_call']))
    } finally {
      server.close()
    }
  })
})
