import type { ChatMessage } from '@hope/api'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  chatSocketUrl,
  latestOperatorMessageId,
  mergeMessages,
  reconnectDelayMs,
  settlePending,
} from './chat.rules.ts'

const msg = (id: number, sender: ChatMessage['sender'] = 'user', clientId = `c${id}`) => ({
  id,
  clientId,
  sender,
  body: `m${id}`,
  createdAt: '2026-03-01T08:00:00Z',
})

describe('merging messages', () => {
  test('oldest first, each id once, whatever order and however often they arrive', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 40 })),
        fc.array(fc.integer({ min: 1, max: 40 })),
        (a, b) => {
          const merged = mergeMessages(
            mergeMessages(
              [],
              a.map((id) => msg(id)),
            ),
            b.map((id) => msg(id)),
          )
          const ids = merged.map((m) => m.id)
          expect(ids).toEqual([...new Set([...a, ...b])].sort((x, y) => x - y))
        },
      ),
    )
  })
  test('nothing new keeps the same list (no re-render)', () => {
    const list = [msg(1), msg(2)]
    expect(mergeMessages(list, [msg(2)])).toBe(list)
    expect(mergeMessages(list, [])).toBe(list)
  })
})

describe('pending messages', () => {
  test('a stored user message with the same client id confirms its pending copy', () => {
    const pending = [
      { clientId: 'a1', body: 'one' },
      { clientId: 'b2', body: 'two' },
    ]
    expect(settlePending(pending, [msg(5, 'user', 'a1')])).toEqual([
      { clientId: 'b2', body: 'two' },
    ])
    // A support message never confirms the user's, even with the same client id.
    expect(settlePending(pending, [msg(6, 'operator', 'b2')])).toBe(pending)
  })
})

test('the read marker goes to the newest support message', () => {
  expect(latestOperatorMessageId([msg(1, 'operator'), msg(2, 'operator'), msg(3)])).toBe(2)
  expect(latestOperatorMessageId([msg(1)])).toBe(0)
})

test('reconnect delays double from a second to half a minute, spread over the upper half', () => {
  expect([0, 1, 2, 3, 10].map((n) => reconnectDelayMs(n, () => 1))).toEqual([
    1000, 2000, 4000, 8000, 30_000,
  ])
  expect(reconnectDelayMs(0, () => 0)).toBe(500)
  fc.assert(
    fc.property(fc.nat(100), fc.double({ min: 0, max: 1, noNaN: true }), (n, r) => {
      const d = reconnectDelayMs(n, () => r)
      expect(d).toBeGreaterThanOrEqual(500)
      expect(d).toBeLessThanOrEqual(30_000)
    }),
  )
})

test('the socket is on the page’s own host, secure when the page is', () => {
  expect(chatSocketUrl({ protocol: 'https:', host: 'app.hope.example' })).toBe(
    'wss://app.hope.example/api/chat/ws',
  )
  expect(chatSocketUrl({ protocol: 'http:', host: 'localhost:5173' })).toBe(
    'ws://localhost:5173/api/chat/ws',
  )
})
