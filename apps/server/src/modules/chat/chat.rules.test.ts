import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  keysetPage,
  nextReadMarker,
  notifyPayload,
  parseNotifyPayload,
  reconnectDelayMs,
} from './chat.rules.ts'

describe('notify payload', () => {
  test('carries a message id and nothing else', () => {
    expect(parseNotifyPayload(notifyPayload(42))).toBe(42)
    for (const bad of [undefined, '', '0', '-1', '1.5', 'abc', '{"id":1}', '9'.repeat(16)])
      expect(parseNotifyPayload(bad), String(bad)).toBeNull()
  })
  test('round-trips every id', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (id) => {
        expect(parseNotifyPayload(notifyPayload(id))).toBe(id)
        expect(Buffer.byteLength(notifyPayload(id))).toBeLessThan(8000)
      }),
    )
  })
})

describe('keyset pages', () => {
  const rows = (ids: number[]) => ids.map((id) => ({ id }))
  test('the extra row says there is more, and the cursor is the oldest row shown', () => {
    expect(keysetPage(rows([9, 8, 7]), 2)).toEqual({ list: rows([9, 8]), nextBeforeId: 8 })
    expect(keysetPage(rows([9, 8]), 2)).toEqual({ list: rows([9, 8]), nextBeforeId: null })
    expect(keysetPage([], 2)).toEqual({ list: [], nextBeforeId: null })
  })
  test('walking the pages visits every row once, newest first', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 10 }),
        (ids, pageSize) => {
          const all = [...ids].sort((a, b) => b - a)
          const seen: number[] = []
          let before: number | null = Infinity
          while (before !== null) {
            const cursor: number = before
            const page = keysetPage(
              rows(all.filter((id) => id < cursor).slice(0, pageSize + 1)),
              pageSize,
            )
            seen.push(...page.list.map((r) => r.id))
            before = page.nextBeforeId
          }
          expect(seen).toEqual(all)
        },
      ),
    )
  })
})

describe('read markers', () => {
  test('move forward only and never past the last message', () => {
    expect(nextReadMarker(5, 8, 10)).toBe(8)
    expect(nextReadMarker(5, 3, 10)).toBe(5)
    expect(nextReadMarker(5, 999, 10)).toBe(10)
    fc.assert(
      fc.property(fc.nat(1000), fc.nat(1000), fc.nat(1000), (current, upTo, last) => {
        const next = nextReadMarker(current, upTo, last)
        expect(next).toBeGreaterThanOrEqual(current)
        if (next > current) expect(next).toBeLessThanOrEqual(Math.min(upTo, last))
      }),
    )
  })
})

describe('listener back-off', () => {
  test('doubles from half a second and stops at the cap', () => {
    expect([0, 1, 2, 3].map((n) => reconnectDelayMs(n))).toEqual([500, 1000, 2000, 4000])
    expect(reconnectDelayMs(50)).toBe(30_000)
    expect(reconnectDelayMs(-3)).toBe(500)
  })
})
