import type { PorStatement } from '@hope/api'
import { describe, expect, test, vi } from 'vitest'
import { lastCheckKey, localDay, runDailyCheck, type DailyCheckDeps } from './daily-check.ts'

const ADDRESS = '0x5b38da6a701c568545dcfcb03fcb875f56beddc4'
const PROOF = { snapshotId: '7' }
const STATEMENT: PorStatement = {
  snapshotId: 7,
  ledgerPosition: '120',
  usdt: '25.5',
  hopeAccounts: '0',
}

function deps(overrides: Partial<DailyCheckDeps> = {}) {
  const stored = new Map<string, string>()
  const storage = {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
  }
  const d = {
    address: ADDRESS,
    today: '2026-03-20',
    storage,
    fetchProof: vi.fn(async (): Promise<unknown> => PROOF),
    fetchAbsentStatement: vi.fn(async (): Promise<PorStatement | null> => STATEMENT),
    verify: vi.fn(async () => ({ ok: true, conclusive: true })),
    notify: vi.fn(async () => {}),
    ...overrides,
  }
  return { ...d, stored }
}

describe('daily proof check', () => {
  test('verifies once a day per user, and says nothing when every check holds', async () => {
    const d = deps()
    expect(await runDailyCheck(d)).toBe('ok')
    expect(d.verify).toHaveBeenCalledWith(PROOF)
    expect(d.stored.get(lastCheckKey(ADDRESS))).toBe('2026-03-20')
    expect(await runDailyCheck(d)).toBe('skipped')
    expect(d.fetchProof).toHaveBeenCalledTimes(1)
    expect(await runDailyCheck({ ...d, address: '0x' + 'ab'.repeat(20) })).toBe('ok')
    expect(await runDailyCheck({ ...d, today: '2026-03-21' })).toBe('ok')
    expect(d.fetchProof).toHaveBeenCalledTimes(3)
    expect(d.notify).not.toHaveBeenCalled()
  })

  test('tells the user when a check fails, once that day', async () => {
    const d = deps({ verify: vi.fn(async () => ({ ok: false, conclusive: true })) })
    expect(await runDailyCheck(d)).toBe('failed')
    expect(d.notify).toHaveBeenCalledTimes(1)
    expect(await runDailyCheck(d)).toBe('skipped')
    expect(d.notify).toHaveBeenCalledTimes(1)
  })

  test('a user left out of the snapshot while the app showed them a balance is told', async () => {
    const d = deps({ fetchProof: vi.fn(async () => null) })
    expect(await runDailyCheck(d)).toBe('failed')
    expect(d.verify).not.toHaveBeenCalled()
    expect(d.notify).toHaveBeenCalledTimes(1)
  })

  test('a user not in the snapshot has nothing to check that day', async () => {
    const d = deps({
      fetchProof: vi.fn(async () => null),
      fetchAbsentStatement: vi.fn(async () => ({ ...STATEMENT, usdt: '0', hopeAccounts: '0.000' })),
    })
    expect(await runDailyCheck(d)).toBe('none')
    expect(d.verify).not.toHaveBeenCalled()
    expect(d.stored.get(lastCheckKey(ADDRESS))).toBe('2026-03-20')
  })

  test('a chain out of reach or a failed read is no alarm, and is tried again', async () => {
    const unreachable = deps({ verify: vi.fn(async () => ({ ok: false, conclusive: false })) })
    expect(await runDailyCheck(unreachable)).toBe('inconclusive')
    expect(unreachable.notify).not.toHaveBeenCalled()
    expect(unreachable.stored.has(lastCheckKey(ADDRESS))).toBe(false)

    const offline = deps({ fetchProof: vi.fn(() => Promise.reject(new Error('offline'))) })
    expect(await runDailyCheck(offline)).toBe('inconclusive')
    expect(offline.stored.has(lastCheckKey(ADDRESS))).toBe(false)
    expect(await runDailyCheck({ ...offline, fetchProof: async () => PROOF })).toBe('ok')
    // A conclusive answer ends the silence.
    expect(offline.stored.size).toBe(1)
  })

  test('"unreachable" fails once it lasts longer than 36 hours, told once a day', async () => {
    let now = Date.parse('2026-03-20T08:00:00Z')
    const d = deps({
      verify: vi.fn(async () => ({ ok: false, conclusive: false })),
      now: () => now,
    })
    expect(await runDailyCheck(d)).toBe('inconclusive')
    now += 35 * 3_600_000
    expect(await runDailyCheck({ ...d, today: '2026-03-21' })).toBe('inconclusive')
    expect(d.notify).not.toHaveBeenCalled()
    now += 2 * 3_600_000
    expect(await runDailyCheck({ ...d, today: '2026-03-21' })).toBe('silent')
    expect(d.notify).toHaveBeenCalledWith('silent')
    // Once that day; again the next day while it lasts.
    expect(await runDailyCheck({ ...d, today: '2026-03-21' })).toBe('skipped')
    now += 24 * 3_600_000
    expect(await runDailyCheck({ ...d, today: '2026-03-22' })).toBe('silent')
    expect(d.notify).toHaveBeenCalledTimes(2)
    // A proof that is never served is the same silence.
    const hidden = deps({
      fetchProof: vi.fn(() => Promise.reject(new Error('404'))),
      now: () => now,
    })
    expect(await runDailyCheck(hidden)).toBe('inconclusive')
    now += 37 * 3_600_000
    expect(await runDailyCheck({ ...hidden, today: '2026-03-24' })).toBe('silent')
  })

  test('a missing proof is judged at the cut the chain anchored; an unreadable chain is no verdict', async () => {
    const d = deps({
      fetchProof: vi.fn(async () => null),
      fetchAbsentStatement: vi.fn(() => Promise.reject(new Error('the chain could not be read'))),
    })
    expect(await runDailyCheck(d)).toBe('inconclusive')
    expect(d.notify).not.toHaveBeenCalled()
  })

  test('the day is the local calendar day', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05')
  })
})
