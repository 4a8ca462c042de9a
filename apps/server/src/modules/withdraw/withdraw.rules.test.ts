import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  WITHDRAWAL_STATUS as S,
  holdHoursFor,
  holdIsOver,
  isContractCode,
  isFinal,
  isForbiddenDestination,
  transition,
  ZERO_ADDRESS,
  type WithdrawalEvent,
  type WithdrawalStatus,
} from './withdraw.rules.ts'

const EVENTS: WithdrawalEvent[] = [
  'approve',
  'reject',
  'cancel',
  'confirm',
  'fail',
  'complete',
  'reorg',
]
const STATUSES = Object.values(S) as WithdrawalStatus[]

describe('withdrawal state machine', () => {
  test('the allowed moves and what they do to the reserved money', () => {
    expect(transition(S.pendingReview, 'approve')).toEqual({
      ok: true,
      to: S.reviewPassed,
      ledger: 'none',
    })
    expect(transition(S.pendingReview, 'reject')).toEqual({
      ok: true,
      to: S.rejected,
      ledger: 'void',
    })
    expect(transition(S.pendingReview, 'cancel')).toEqual({
      ok: true,
      to: S.canceled,
      ledger: 'void',
    })
    expect(transition(S.reviewPassed, 'confirm')).toEqual({
      ok: true,
      to: S.confirmed,
      ledger: 'none',
    })
    expect(transition(S.reviewPassed, 'fail')).toEqual({ ok: true, to: S.failed, ledger: 'void' })
    expect(transition(S.confirmed, 'complete')).toEqual({
      ok: true,
      to: S.completed,
      ledger: 'post',
    })
  })

  test('every other move is refused', () => {
    const allowed = new Set([
      '0:approve',
      '0:reject',
      '0:cancel',
      '1:confirm',
      '1:fail',
      '5:complete',
      '5:reorg',
    ])
    for (const s of STATUSES)
      for (const e of EVENTS) expect(transition(s, e).ok).toBe(allowed.has(`${s}:${e}`))
  })

  test('any sequence of events settles the money at most once and never leaves a final state', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EVENTS), { maxLength: 12 }), (events) => {
        let state: WithdrawalStatus = S.pendingReview
        let settlements = 0
        for (const e of events) {
          const t = transition(state, e)
          if (!t.ok) continue
          expect(isFinal(state)).toBe(false)
          if (t.ledger !== 'none') settlements += 1
          state = t.to
        }
        return settlements <= 1 && (settlements === 1) === isFinal(state)
      }),
    )
  })
})

describe('the hold of a new address', () => {
  const owner = '0xAbC0000000000000000000000000000000000001'
  test('the own wallet (any case) and a known address never wait; a new one waits the hours', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 720 }), fc.boolean(), (hours, paid) => {
        expect(holdHoursFor({ owner, to: owner.toLowerCase(), paidThereBefore: paid, hours })).toBe(
          0,
        )
        const other = '0x0000000000000000000000000000000000000002'
        expect(holdHoursFor({ owner, to: other, paidThereBefore: paid, hours })).toBe(
          paid ? 0 : hours,
        )
      }),
    )
  })
  test('approvable once the time is reached, or when there is no hold', () => {
    const at = new Date('2026-11-28T12:00:00Z')
    expect(holdIsOver(null, at)).toBe(true)
    expect(holdIsOver(new Date('2026-11-28T12:00:00Z'), at)).toBe(true)
    expect(holdIsOver(new Date('2026-11-28T12:00:01Z'), at)).toBe(false)
  })
})

describe('destinations no withdrawal may go to', () => {
  const address = fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .map((b) => `0x${Buffer.from(b).toString('hex')}`)
  /** The same address with each hex letter in either case, as a user may paste it. */
  const anyCase = (a: string, flips: boolean[]) =>
    `0x${[...a.slice(2)].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join('')}`
  const flips = fc.array(fc.boolean(), { minLength: 1, maxLength: 40 })
  const platform = fc.array(fc.oneof(address, fc.constant(''), fc.constant(null)), {
    maxLength: 8,
  })

  test('a platform address is refused in any case, wherever it is listed', () => {
    fc.assert(
      fc.property(platform, address, fc.nat(), flips, (list, own, at, f) => {
        const listed = [...list]
        listed.splice(at % (listed.length + 1), 0, anyCase(own, f))
        expect(isForbiddenDestination(own, listed)).toBe(true)
        expect(
          isForbiddenDestination(
            anyCase(
              own,
              f.map((x) => !x),
            ),
            listed,
          ),
        ).toBe(true)
      }),
    )
  })

  test('the zero address is always refused, even with no platform address set', () => {
    fc.assert(
      fc.property(platform, (list) => {
        expect(isForbiddenDestination(ZERO_ADDRESS, list)).toBe(true)
      }),
    )
  })

  test('any other address is allowed; unset settings refuse nothing', () => {
    fc.assert(
      fc.property(platform, address, (list, to) => {
        fc.pre(to !== ZERO_ADDRESS && !list.some((p) => p?.toLowerCase() === to))
        expect(isForbiddenDestination(to, list)).toBe(false)
      }),
    )
  })

  test('code makes a contract, an EIP-7702 delegation does not; no answer is unknown', () => {
    expect(isContractCode('0x')).toBe(false)
    expect(isContractCode(undefined)).toBe(false)
    expect(isContractCode('0x6080604052')).toBe(true)
    expect(isContractCode(`0xef0100${'ab'.repeat(20)}`)).toBe(false)
    expect(isContractCode(`0xef0100${'ab'.repeat(21)}`)).toBe(true)
    expect(isContractCode(null)).toBeNull()
  })
})
