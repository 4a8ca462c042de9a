import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { ratePercent } from '../../lib/format/format.ts'
import { directMember } from '../../../test-support/holder-fixtures.ts'
import {
  checkActivation,
  checkCollect,
  findMember,
  levelCost,
  levelOptions,
  nodeOffers,
  placementLocked,
  showUsdt,
} from './holder.rules.ts'

const PRICES = ['100', '300', '600', '1000', '2000', '5000', '10000']
const ADDRESS = '0xabcdef0000000000000000000000000000000001'

describe('holder rules', () => {
  test('rates read as percentages, exactly', () => {
    expect(ratePercent('0.010000')).toBe('1')
    expect(ratePercent('0.025')).toBe('2.5')
    expect(ratePercent('0')).toBe('0')
    expect(ratePercent('oops')).toBe('0')
  })

  test('node offers carry price, share and how they are held', () => {
    const offers = nodeOffers({
      nodes: [{ type: 3, source: 'granted' }],
      nodePrices: ['1000.000000', '3000', '5000'],
      nodeRewardRates: ['0.01', '0.02', '0.03'],
    })
    expect(offers.map((o) => [o.name, o.price, o.ratePercent, o.held])).toEqual([
      ['shareholder', '1000', '1', null],
      ['guarding', '3000', '2', null],
      ['director', '5000', '3', 'granted'],
    ])
  })

  test('collect: an amount, a valid one, within the balance', () => {
    expect(checkCollect(null, '10')).toEqual({ problem: 'amountRequired' })
    expect(checkCollect(0n, '10')).toEqual({ problem: 'amountInvalid' })
    expect(checkCollect(10_000001n, '10')).toEqual({ problem: 'insufficient' })
    expect(checkCollect(10_000000n, '10')).toEqual({ quote: { amount: '10' } })
    expect(checkCollect(500000n, '10.000000')).toEqual({ quote: { amount: '0.5' } })
  })

  test('a level costs the difference of the cumulative prices', () => {
    expect(levelCost(PRICES, 0, 1)).toBe(100_000000n)
    expect(levelCost(PRICES, 2, 3)).toBe(300_000000n)
    expect(levelCost(PRICES, 2, 7)).toBe(9_700_000000n)
    expect(levelCost(PRICES, 3, 3)).toBeNull()
    expect(levelCost(PRICES, 4, 2)).toBeNull()
    expect(levelCost(PRICES, 0, 8)).toBeNull()
  })

  test('upgrading step by step costs what one upgrade costs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 7, maxLength: 7 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        (steps, from, span) => {
          const to = Math.min(7, from + span)
          let total = 0
          const prices = steps.map((s) => String((total += s)))
          let paid = 0n
          for (let l = from; l < to; l += 1) paid += levelCost(prices, l, l + 1) ?? -1n
          expect(levelCost(prices, from, to)).toBe(paid)
        },
      ),
    )
  })

  test('level options: only above the member, or every level at most its price', () => {
    const known = levelOptions(PRICES, 5)
    expect(known.map((o) => o.selectable)).toEqual([false, false, false, false, false, true, true])
    expect(known.map((o) => o.cost)).toEqual([null, null, null, null, null, '3000', '8000'])
    expect(levelOptions(PRICES, null).map((o) => o.cost)).toEqual(PRICES)
  })

  test('members are found by address whatever the case', () => {
    const member = directMember(1)
    expect(findMember([member], member.userName.toUpperCase().replace('0X', '0x'))).toBe(member)
    expect(findMember([member], '')).toBeUndefined()
    expect(findMember([member], ADDRESS)).toBeUndefined()
  })

  test('the partition is locked once a member has a level, a team or consensus', () => {
    const fresh = { level: 0, teamPeople: 0, consensus: '0.000000' }
    expect(placementLocked(fresh)).toBe(false)
    expect(placementLocked({ ...fresh, level: 1 })).toBe(true)
    expect(placementLocked({ ...fresh, teamPeople: 1 })).toBe(true)
    expect(placementLocked({ ...fresh, consensus: '0.01' })).toBe(true)
  })

  test('activation checks in the order of the form', () => {
    const ctx = { levelPrices: PRICES, member: undefined }
    const form = { address: ADDRESS, level: 2, location: null }
    expect(checkActivation({ ...form, address: ' ' }, ctx)).toEqual({ problem: 'addressRequired' })
    expect(checkActivation({ ...form, address: '0x12' }, ctx)).toEqual({
      problem: 'addressInvalid',
    })
    expect(checkActivation({ ...form, level: null }, ctx)).toEqual({ problem: 'levelRequired' })
    const member = directMember(1, { level: 3 })
    expect(checkActivation(form, { ...ctx, member })).toEqual({ problem: 'notAnUpgrade' })
    expect(checkActivation({ ...form, level: 5, location: 3 }, { ...ctx, member })).toEqual({
      quote: {
        address: ADDRESS,
        level: 5,
        location: 3,
        amount: '1400',
        exact: true,
        least: '1400',
      },
    })
    // Unknown level: at most the full price, at least one level's step.
    expect(checkActivation({ ...form, level: 5 }, ctx)).toEqual({
      quote: {
        address: ADDRESS,
        level: 5,
        location: null,
        amount: '2000',
        exact: false,
        least: '1000',
      },
    })
  })

  test('amounts for display', () => {
    expect(showUsdt(1_500000n)).toBe('1.5')
  })
})
