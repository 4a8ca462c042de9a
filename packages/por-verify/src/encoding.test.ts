import { expect, test } from 'vitest'
import {
  encodeAddress,
  encodeSnapshotId,
  encodeSum,
  LEAF_TAG,
  NODE_TAG,
  PAD_TAG,
  readSum,
  SUM_BOUND,
  toHex,
} from './encoding.ts'

test('sums are 16 bytes big-endian, refused when negative or ≥ 2^127', () => {
  expect(toHex(encodeSum(258n))).toBe(`0x${'00'.repeat(14)}0102`)
  expect(readSum(encodeSum(SUM_BOUND - 1n), 0)).toBe(SUM_BOUND - 1n)
  expect(() => encodeSum(SUM_BOUND)).toThrow(RangeError)
  expect(() => encodeSum(-1n)).toThrow(RangeError)
})

test('fixed widths for ids and addresses; tags are distinct ASCII', () => {
  expect(toHex(encodeSnapshotId(1n))).toBe('0x0000000000000001')
  expect(() => encodeSnapshotId(2n ** 64n)).toThrow(RangeError)
  expect(encodeAddress(`0x${'Ab'.repeat(20)}`)).toHaveLength(20)
  expect(() => encodeAddress('0x1234')).toThrow(RangeError)
  const tags = [LEAF_TAG, NODE_TAG, PAD_TAG].map((t) => new TextDecoder().decode(t))
  expect(tags).toEqual(['HOPE-PoL-leaf-v1', 'HOPE-PoL-node-v1', 'HOPE-PoL-pad-v1'])
})
