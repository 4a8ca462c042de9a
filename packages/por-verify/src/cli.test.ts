import { execFile } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import {
  decodeFunctionData,
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionResult,
  erc20Abi,
  keccak256,
  recoverAddress,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildSnapshotTree } from './build.ts'
import { erc1271Abi, ERC1271_MAGIC_VALUE } from './chain.ts'
import { runCli } from './cli.ts'
import type { ProofFile } from './proof.ts'
import { porRegistryAbi } from './registry-abi.ts'
import { REGISTRY_CODE_HASH } from './verify.ts'
import {
  BLOCK,
  PUBLISHED_AT,
  blockHash,
  CHAIN_ID,
  CHECK_BLOCK,
  HEAD,
  LEDGER_CUT,
  PUBLISHED_BLOCK,
  RULES,
  fakeChain,
  NOW,
  proofOf,
  REGISTRY,
  RESERVE_ADDRESSES,
  SECRET,
  signReserves,
  signVault,
  TOKEN,
  VAULT,
  VAULT_OWNER_KEY,
} from './testing.ts'

/** The registry's runtime code as compiled (its hash is the one this package ships). */
const registryCode = JSON.parse(
  fs.readFileSync(
    path.join(import.meta.dirname, '../../../apps/server/src/chain/contracts/PorRegistry.json'),
    'utf8',
  ),
).deployedBytecode as `0x${string}`

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

async function run(args: string[], chain = fakeChain(tree), now = NOW) {
  const lines: string[] = []
  const status = await runCli(args, {
    out: (l) => lines.push(l),
    readersFor: () => chain,
    now: () => now,
  })
  return { status, text: lines.join('\n') }
}

/** The pinned command line for `file`, with the user's own balance unless overridden. */
const pinned = (file: string, over: Record<string, string> = {}) => {
  const flags = {
    rpc: 'http://chain',
    registry: REGISTRY,
    token: TOKEN,
    address: accounts[0]!.address,
    usdt: '12.5',
    hope: '3',
    ...over,
  }
  return [file, ...Object.entries(flags).flatMap(([k, v]) => [`--${k}`, v])]
}

describe('por-verify', () => {
  test('prints a tick per check and exits 0 when all hold', async () => {
    const { status, text } = await run(pinned(write('ok.json', proof)))
    expect(status).toBe(0)
    expect(text).toMatch(/✓ official registry +registry 0x00000000…0000a1 and token/)
    expect(text).toMatch(
      /✓ latest and fresh +snapshot 11 is the registry's newest settled one, published 1\.0 hours ago by the chain's clock/,
    )
    expect(text).toMatch(/✓ balance +12\.5 USDT and 3 HOPE in \d part/)
    expect(text).toMatch(
      /✓ reserves cover USDT +19\.5 of the token \(6 decimals\) held at block 120/,
    )
    expect(text).not.toMatch(/✗/)
    expect(text).toMatch(/All 15 checks hold\./)
  })

  test('exits 1 and marks the failing check when the chain disagrees', async () => {
    const short = fakeChain(tree, { reserves: 1_000_000n })
    const { status, text } = await run(pinned(write('ok.json', proof)), short)
    expect(status).toBe(1)
    expect(text).toMatch(
      /✗ reserves cover USDT +1 of the token \(6 decimals\) held at block 120 by 2 address\(es\) < liabilities 19\.5 USDT/,
    )
    expect(text).toMatch(/2 of 15 checks failed\./)
  })

  test('exits 1 on a balance other than the one the user knows, and on a malformed file', async () => {
    const other = await run(pinned(write('ok.json', proof), { usdt: '13' }))
    expect(other.status).toBe(1)
    expect(other.text).toMatch(/✗ balance +12\.5 USDT committed, 13 USDT expected/)
    const bad = await run(pinned(write('bad.json', { ...proof, extra: true })))
    expect(bad.status).toBe(1)
    expect(bad.text).toMatch(/✗ proof file +\$\.extra: expected no such field/)
    expect((await run(pinned(write('text.json', 'not json')))).status).toBe(1)
  })

  test('a balance off by less than a unit is an error, never rounded', async () => {
    const off = await run(pinned(write('ok.json', proof), { usdt: '12.4999995' }))
    expect(off.status).toBe(2)
    expect(off.text).toMatch(/--usdt: "12\.4999995" has 7 decimals; the currency has 6/)
    expect((await run(pinned(write('ok.json', proof), { usdt: '12.500000' }))).status).toBe(0)
    expect(
      (await run(pinned(write('ok.json', proof), { hope: '3.0000000000000000001' }))).status,
    ).toBe(2)
  })

  test('the operator’s own registry or token in the file is refused', async () => {
    const ownRegistry = `0x${'e1'.repeat(20)}`
    const ownToken = `0x${'e2'.repeat(20)}`
    const registry = await run(pinned(write('reg.json', { ...proof, registry: ownRegistry })))
    expect(registry.status).toBe(1)
    expect(registry.text).toMatch(
      new RegExp(
        `✗ official registry +the file names registry ${ownRegistry}, not the official ${REGISTRY}`,
      ),
    )
    const token = await run(pinned(write('tok.json', { ...proof, token: ownToken })))
    expect(token.status).toBe(1)
    expect(token.text).toMatch(/✗ official registry +the file names token 0xe2e2/)
  })

  test('only the registry’s newest snapshot, and only a fresh one', async () => {
    const replayed = await run(pinned(write('ok.json', proof)), fakeChain(tree, { latestId: 13n }))
    expect(replayed.status).toBe(1)
    expect(replayed.text).toMatch(/✗ latest and fresh +snapshot 11 is not the latest, 13 is/)
    const stale = await run(pinned(write('ok.json', proof)), fakeChain(tree), NOW + 36 * 3_600_000)
    expect(stale.status).toBe(1)
    expect(stale.text).toMatch(
      /✗ latest and fresh +snapshot 11 was published 37\.0 hours ago, more than 36/,
    )
    const tighter = await run(
      [...pinned(write('ok.json', proof)), '--max-age-hours', '0.5'],
      fakeChain(tree),
    )
    expect(tighter.status).toBe(1)
  })

  test('reserves come from the registry: its token’s decimals, its reserve set', async () => {
    // An 18-decimal token holding 19.5 tokens: not 10^12 times the liabilities, exactly enough.
    const eighteen = fakeChain(tree, {
      anchored: { tokenDecimals: 18 },
      reserves: 195n * 10n ** 17n,
    })
    const ok = await run(pinned(write('ok.json', proof)), eighteen)
    expect(ok.text).toMatch(/✓ reserves cover USDT +19\.5 of the token \(18 decimals\)/)
    const raw = fakeChain(tree, { anchored: { tokenDecimals: 18 }, reserves: 19_500_000n })
    const short = await run(pinned(write('ok.json', proof)), raw)
    expect(short.status).toBe(1)
    expect(short.text).toMatch(
      /✗ reserves cover USDT +0\.0000000000195 of the token \(18 decimals\)/,
    )
    // A reserve the registry counts twice, or one without a statement, is refused.
    const twice = fakeChain(tree, {
      anchored: { reserves: [RESERVE_ADDRESSES[0]!, RESERVE_ADDRESSES[0]!] },
    })
    expect((await run(pinned(write('ok.json', proof)), twice)).text).toMatch(
      /✗ reserve ownership +the registry lists a reserve address twice/,
    )
    const listedTwice = { ...proof, reserves: [proof.reserves[0]!, proof.reserves[0]!] }
    expect((await run(pinned(write('twice.json', listedTwice)))).text).toMatch(
      /✗ reserve ownership +0x[0-9a-fA-F]{40} is listed twice/,
    )
    const unsigned = fakeChain(tree, {
      anchored: { reserves: [...RESERVE_ADDRESSES, `0x${'f0'.repeat(20)}`] },
    })
    expect((await run(pinned(write('ok.json', proof)), unsigned)).text).toMatch(
      /✗ reserve ownership +no ownership statement for reserve 0xf0f0/,
    )
  })

  test('a part left out, or another user’s proof, fails the balance the user knows', async () => {
    // The parts of a balance are drawn at random: take a member whose balance has several.
    const many = Array.from({ length: 16 }, (_, i) => ({
      address: `0x${(i + 16).toString(16).repeat(20)}`,
      usdt: 12_500_000n,
      hope: 3n * 10n ** 18n,
    }))
    const split = buildSnapshotTree({ snapshotId: 11n, secret: SECRET, accounts: many })
    const full = many
      .map((a) => proofOf(split, a.address, proof.reserves))
      .find((p) => p.parts.length > 1)!
    expect(full).toBeDefined()
    const onePart = {
      ...full,
      parts: [full.parts[0]!],
      balance: { usdt: full.parts[0]!.usdt, hope: full.parts[0]!.hope },
    }
    const shown = await run(pinned(write('one.json', onePart)), fakeChain(split))
    expect(shown.status).toBe(1)
    expect(shown.text).toMatch(/✗ balance +.* committed, 12\.5 USDT expected/)
    const someoneElse = proofOf(tree, accounts[1]!.address, proof.reserves)
    const theirs = await run(
      pinned(write('theirs.json', someoneElse), { address: accounts[0]!.address }),
    )
    expect(theirs.status).toBe(1)
    expect(theirs.text).toMatch(/✗ balance +the proof is for 0x0c0c/)
  })

  test('--address is required: another user’s proof with an equal balance cannot pass', async () => {
    const twins = [
      { address: `0x${'0d'.repeat(20)}`, usdt: 12_500_000n, hope: 3n * 10n ** 18n },
      { address: `0x${'0e'.repeat(20)}`, usdt: 12_500_000n, hope: 3n * 10n ** 18n },
    ]
    const both = buildSnapshotTree({ snapshotId: 11n, secret: SECRET, accounts: twins })
    const twinsProof = proofOf(both, twins[1]!.address, proof.reserves)
    const args = pinned(write('twin.json', twinsProof), { address: twins[0]!.address })
    const withAddress = await run(args, fakeChain(both))
    expect(withAddress.status).toBe(1)
    expect(withAddress.text).toMatch(/✗ balance +the proof is for 0x0e0e/)
    const without = [...args]
    without.splice(without.indexOf('--address'), 2)
    const refused = await run(without, fakeChain(both))
    expect(refused.status).toBe(2)
    expect(refused.text).toMatch(/--address is required/)
  })

  test('exits 3, not 1, while the snapshot waits for its check block or the node is behind', async () => {
    const settling = await run(
      pinned(write('ok.json', proof)),
      fakeChain(tree, { head: 130n }),
      NOW - 900 * 4_000,
    )
    expect(settling.status).toBe(3)
    expect(settling.text).toMatch(
      /Not known yet: the reserves of snapshot 11 are counted again at block 131; the chain is at 130/,
    )
    const behind = await run(pinned(write('ok.json', proof)), {
      ...fakeChain(tree),
      readBlock: async () => undefined,
    })
    expect(behind.status).toBe(3)
    expect(behind.text).toMatch(/Not known yet: the node is behind block 130/)
    // A registry running other code is a failure, never "not known yet".
    const forged = await run(
      pinned(write('ok.json', proof)),
      fakeChain(tree, { codeHash: `0x${'66'.repeat(32)}` }),
    )
    expect(forged.status).toBe(1)
    expect(forged.text).toMatch(/✗ registry code +the registry's code hashes to 0x66666666/)
  })

  // The ways an insolvent operator timed the proof before the registry's rules, each refused
  // by the command a user runs.
  test.each([
    [
      'on-demand snapshots: published sooner after the previous one than the registry allows',
      { rules: { minInterval: 90_000n } },
      'registry rules',
      /after the previous snapshot, less than 90000/,
    ],
    [
      'a one-block loan: reserves gone at the check block',
      { reservesAtCheck: 0n },
      'reserves again',
      /held at block 131 .* < liabilities/,
    ],
    [
      'a publication time in the future',
      { anchored: { publishedAt: PUBLISHED_AT + 864_000n } },
      'latest and fresh',
      /in the future/,
    ],
    [
      'storage rewritten after the publication',
      { event: { totalUsdt: 1n } },
      'registry rules',
      /storage differs from what its publication said/,
    ],
    [
      'the registry’s code replaced',
      { codeHash: `0x${'77'.repeat(32)}` as const },
      'registry code',
      /code hashes to/,
    ],
  ] as const)('%s: refused', async (_, over, label, detail) => {
    const { status, text } = await run(
      [...pinned(write('ok.json', proof)), '--max-age-hours', '36'],
      fakeChain(tree, over as Parameters<typeof fakeChain>[1]),
      NOW,
    )
    expect(status).toBe(1)
    expect(text).toMatch(new RegExp(`✗ ${label} +.*${detail.source}`))
  })

  test('a user’s clock 30 days slow does not make a month-old snapshot fresh', async () => {
    const { status, text } = await run(
      pinned(write('ok.json', proof)),
      fakeChain(tree, { head: HEAD + 39n * 900n }),
      NOW - 30 * 86_400_000,
    )
    expect(status).toBe(1)
    expect(text).toMatch(/✗ latest and fresh +snapshot 11 was published 40\.0 hours ago/)
  })

  test('exits 2 on bad usage, 0 on --help', async () => {
    expect((await run([])).status).toBe(2)
    expect((await run([write('ok.json', proof)])).status).toBe(2)
    for (const missing of ['rpc', 'registry', 'token', 'address', 'usdt', 'hope']) {
      const args = pinned(write('ok.json', proof))
      const at = args.indexOf(`--${missing}`)
      args.splice(at, 2)
      const r = await run(args)
      expect(r.status).toBe(2)
      expect(r.text).toMatch(new RegExp(`--${missing} is required`))
    }
    expect((await run(pinned(write('ok.json', proof), { usdt: '1,5' }))).status).toBe(2)
    expect((await run(pinned(write('ok.json', proof), { registry: '0x12' }))).status).toBe(2)
    expect((await run([...pinned(write('ok.json', proof)), '--bogus'])).status).toBe(2)
    expect((await run(pinned(path.join(dir, 'missing.json')))).status).toBe(2)
    const help = await run(['--help'])
    expect(help.status).toBe(0)
    expect(help.text).toMatch(/^Usage: por-verify <proof.json> --rpc <url> --registry/)
  })

  test('the shipped code hash is the compiled registry’s runtime code', () => {
    expect(keccak256(registryCode)).toBe(REGISTRY_CODE_HASH)
  })

  // The command as a user runs it: a separate process, over JSON-RPC, to a node that knows the
  // registry (its code, its rules, the snapshot and the one before, the publication's event),
  // the token, the blocks and the payout vault, a reserve that answers EIP-1271 for its owner.
  test('runs as a process against a JSON-RPC endpoint', async () => {
    const calls: string[] = []
    const withVault = { ...proof, reserves: [...proof.reserves, await signVault()] }
    const reserveSet = [VAULT, ...RESERVE_ADDRESSES]
    const vaultOwner = privateKeyToAccount(VAULT_OWNER_KEY).address
    // The head at the real clock (the process reads Date.now()), 4 s a block; the snapshot
    // published an hour before it at block 130, its check block 131.
    const head = HEAD
    const nowS = BigInt(Math.floor(Date.now() / 1000))
    const block = (n: bigint) => ({
      number: toHex(n),
      hash: blockHash(n),
      parentHash: blockHash(n - 1n),
      timestamp: toHex(nowS - (head - n) * 4n),
      transactions: [],
      logsBloom: `0x${'00'.repeat(256)}`,
      gasLimit: '0x1c9c380',
      gasUsed: '0x0',
      difficulty: '0x0',
      extraData: '0x',
      miner: `0x${'00'.repeat(20)}`,
      nonce: '0x0000000000000000',
      size: '0x200',
      uncles: [],
    })
    const snapshot = (id: bigint) => {
      const own = id === 11n
      return {
        root: own ? tree.root : (`0x${'ab'.repeat(32)}` as const),
        totalUsdt: own ? tree.totals.usdt : 1n,
        totalHope: own ? tree.totals.hope : 1n,
        blockNumber: own ? BLOCK : BLOCK - 20n,
        publishedAt: own ? nowS - (head - PUBLISHED_BLOCK) * 4n : nowS - 90_000n,
        token: TOKEN,
        tokenDecimals: 6,
        publishedBlock: own ? PUBLISHED_BLOCK : 110n,
        ledgerCut: own ? LEDGER_CUT : LEDGER_CUT - 10n,
        leafCount: 3n,
      }
    }
    const publication = () => {
      const s = snapshot(11n)
      const topics = encodeEventTopics({
        abi: porRegistryAbi,
        eventName: 'SnapshotPublished',
        args: { id: 11n },
      })
      const data = encodeAbiParameters(
        [
          { type: 'bytes32' },
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'uint64' },
          { type: 'address' },
          { type: 'uint8' },
          { type: 'uint64' },
          { type: 'uint64' },
          { type: 'address[]' },
        ],
        [
          s.root,
          s.totalUsdt,
          s.totalHope,
          s.blockNumber,
          s.token,
          s.tokenDecimals,
          s.ledgerCut,
          s.leafCount,
          reserveSet,
        ],
      )
      return {
        address: REGISTRY,
        topics,
        data,
        blockNumber: toHex(PUBLISHED_BLOCK),
        blockHash: blockHash(PUBLISHED_BLOCK),
        transactionHash: `0x${'c1'.repeat(32)}`,
        transactionIndex: '0x0',
        logIndex: '0x0',
        removed: false,
      }
    }
    const atReserveBlocks = (tag: string) => tag === toHex(BLOCK) || tag === toHex(CHECK_BLOCK)
    const server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', async () => {
        const { id, method, params } = JSON.parse(body)
        calls.push(method)
        let result: unknown
        if (method === 'eth_chainId') result = toHex(CHAIN_ID)
        // The token is there at blocks B and C (a contract's code; only whether there is any
        // counts); the registry runs the published code.
        else if (method === 'eth_getCode' && params[0].toLowerCase() === TOKEN)
          result = atReserveBlocks(params[1]) ? '0x6080' : undefined
        else if (method === 'eth_getCode' && params[0].toLowerCase() === REGISTRY)
          result = registryCode
        else if (method === 'eth_getBlockByNumber')
          result = block(params[0] === 'latest' ? head : BigInt(params[0]))
        else if (
          method === 'eth_getLogs' &&
          params[0].fromBlock === toHex(PUBLISHED_BLOCK) &&
          params[0].toBlock === toHex(PUBLISHED_BLOCK)
        )
          result = [publication()]
        else if (method === 'eth_call') {
          const [{ to, data }, tag] = params
          const call = decodeFunctionData({
            abi: [...porRegistryAbi, ...erc20Abi, ...erc1271Abi],
            data,
          })
          if (to === REGISTRY && call.functionName === 'snapshots')
            result = encodeFunctionResult({
              abi: porRegistryAbi,
              functionName: 'snapshots',
              result: snapshot(call.args![0] as bigint),
            })
          else if (to === REGISTRY && call.functionName === 'latestId')
            result = encodeFunctionResult({
              abi: porRegistryAbi,
              functionName: 'latestId',
              result: 11n,
            })
          else if (to === REGISTRY && call.functionName === 'rules')
            result = encodeFunctionResult({
              abi: porRegistryAbi,
              functionName: 'rules',
              result: [RULES.minInterval, RULES.maxBlockAge, RULES.checkWindow],
            })
          else if (to === REGISTRY && call.functionName === 'reservesOf')
            result = encodeFunctionResult({
              abi: porRegistryAbi,
              functionName: 'reservesOf',
              result: reserveSet,
            })
          else if (
            to.toLowerCase() === TOKEN &&
            call.functionName === 'balanceOf' &&
            atReserveBlocks(tag)
          )
            // The vault holds the float; the wallets a little each.
            result = encodeFunctionResult({
              abi: erc20Abi,
              functionName: 'balanceOf',
              result: String(call.args![0]).toLowerCase() === VAULT ? 10_000_000n : 5_000_000n,
            })
          else if (
            to.toLowerCase() === VAULT &&
            call.functionName === 'isValidSignature' &&
            tag === toHex(BLOCK)
          ) {
            const [hash, signature] = call.args as [`0x${string}`, `0x${string}`]
            const signer = await recoverAddress({ hash, signature })
            result = encodeFunctionResult({
              abi: erc1271Abi,
              functionName: 'isValidSignature',
              result: signer === vaultOwner ? ERC1271_MAGIC_VALUE : '0xffffffff',
            })
          }
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
      const file = write('rpc.json', withVault)
      const cli = path.join(import.meta.dirname, 'cli.ts')
      const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>(
        (resolve) => {
          const args = pinned(file, { rpc, usdt: '12.5', hope: '3' })
          const child = execFile(process.execPath, [cli, ...args], (_, stdout) =>
            resolve({ code: child.exitCode, stdout }),
          )
        },
      )
      expect(stdout).toMatch(
        /✓ anchored on chain +registry 0x00000000…0000a1, snapshot 11: root, totals and block 120 match/,
      )
      expect(stdout).toMatch(/✓ reserve ownership +3 reserve .* for 1 contract\(s\), by its owner/)
      expect(stdout).toMatch(
        /✓ reserves cover USDT +20 of the token \(6 decimals\) held at block 120 by 3 address/,
      )
      expect(stdout).toMatch(/All 15 checks hold\./)
      expect(code).toBe(0)
      expect(stdout).toMatch(/✓ reserves again +20 of the token \(6 decimals\) held at block 131/)
      expect(new Set(calls)).toEqual(
        new Set(['eth_chainId', 'eth_getCode', 'eth_call', 'eth_getBlockByNumber', 'eth_getLogs']),
      )
    } finally {
      server.close()
    }
  })
})
