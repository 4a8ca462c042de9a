import { beforeAll, describe, expect, test } from 'vitest'
import { buildSnapshotTree } from './build.ts'
import { MAX_RESERVES, parseProofFile, reserveOwnershipMessage, type ProofFile } from './proof.ts'
import { proofOf, SECRET, signReserves } from './testing.ts'

let proof: ProofFile
beforeAll(async () => {
  const accounts = [{ address: `0x${'0a'.repeat(20)}`, usdt: 12_500_000n, hope: 3n * 10n ** 18n }]
  const tree = buildSnapshotTree({ snapshotId: 77n, secret: SECRET, accounts })
  proof = proofOf(tree, accounts[0]!.address, await signReserves())
})

const edited = (edit: (p: Record<string, unknown> & ProofFile) => void) => {
  const copy = JSON.parse(JSON.stringify(proof))
  edit(copy)
  return parseProofFile(copy)
}

describe('parseProofFile', () => {
  test('accepts a file as written, through JSON', () => {
    expect(parseProofFile(JSON.parse(JSON.stringify(proof)))).toEqual({ ok: true, proof })
  })

  test.each([
    [
      'an unknown field',
      (p: Record<string, unknown>) => (p.extra = 1),
      /\$\.extra: expected no such field/,
    ],
    [
      'a missing field',
      (p: Record<string, unknown>) => delete p.root,
      /\$\.root: expected missing/,
    ],
    ['another version', (p: ProofFile) => ((p as { version: number }).version = 2), /version/],
    ['a negative amount', (p: ProofFile) => (p.parts[0]!.path[0]!.usdt = '-1'), /path\[0\]\.usdt/],
    ['a decimal point', (p: ProofFile) => (p.balance.usdt = '12.5'), /balance\.usdt/],
    ['a leading zero', (p: ProofFile) => (p.totals.hope = '01'), /totals\.hope/],
    [
      'an amount as a number',
      (p: ProofFile) => ((p.totals as { usdt: unknown }).usdt = 5),
      /totals\.usdt/,
    ],
    ['a short path', (p: ProofFile) => p.parts[0]!.path.pop(), /exactly 32 items/],
    [
      'four parts',
      (p: ProofFile) => p.parts.push(p.parts[0]!, p.parts[0]!, p.parts[0]!),
      /1 to 3 items/,
    ],
    ['no part', (p: ProofFile) => (p.parts = []), /1 to 3 items/],
    [
      'too many reserves',
      (p: ProofFile) => (p.reserves = Array(MAX_RESERVES + 1).fill(p.reserves[0])),
      /reserves/,
    ],
    ['a short root', (p: ProofFile) => (p.root = '0x1234'), /\$\.root: expected 32 bytes/],
    ['a position off the tree', (p: ProofFile) => (p.parts[0]!.position = 2 ** 32), /position/],
    [
      'a snapshot id past u64',
      (p: ProofFile) => (p.snapshotId = (2n ** 64n).toString()),
      /snapshotId/,
    ],
    [
      'a field on a path node',
      (p: ProofFile) => ((p.parts[0]!.path[5] as unknown as Record<string, unknown>).sum = '1'),
      /path\[5\]\.sum/,
    ],
  ])('refuses %s', (_, edit, error) => {
    const result = edited(edit as (p: ProofFile) => void)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toMatch(error)
  })

  test('refuses what is not an object', () => {
    for (const value of [null, [], 'proof', 1]) expect(parseProofFile(value).ok).toBe(false)
  })
})

test('the reserve statement names the address, chain, registry and token', () => {
  const message = reserveOwnershipMessage({
    address: '0xAbC0000000000000000000000000000000000001',
    chainId: 56,
    registry: '0x00000000000000000000000000000000000000A1',
    token: '0x55d398326f99059fF775485246999027B3197955',
  })
  expect(message).toBe(
    [
      'HOPE proof of reserves',
      'The address 0xabc0000000000000000000000000000000000001 holds funds that HOPE owes to its users.',
      'Chain: 56',
      'Registry: 0x00000000000000000000000000000000000000a1',
      'Token: 0x55d398326f99059ff775485246999027b3197955',
    ].join('\n'),
  )
})
