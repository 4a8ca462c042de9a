import * as api from '@hope/api'
import { describe, expect, test } from 'vitest'
import {
  ACCOUNT_KINDS,
  LOG_TYPE_CODES,
  LOG_TYPES,
  RECHARGE_STATUSES,
  WITHDRAWAL_STATUSES,
} from './contract.ts'

describe('contract copies', () => {
  test('match @hope/api, order included', () => {
    expect(ACCOUNT_KINDS).toEqual(api.ACCOUNT_KINDS)
    expect(LOG_TYPES).toEqual(api.LOG_TYPES)
    expect(LOG_TYPE_CODES).toEqual(api.LOG_TYPE_CODES)
    expect(WITHDRAWAL_STATUSES).toEqual(api.WITHDRAWAL_STATUSES)
    expect(RECHARGE_STATUSES).toEqual(api.RECHARGE_STATUSES)
  })
})
