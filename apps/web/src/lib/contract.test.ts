import * as api from '@hope/api'
import { describe, expect, test } from 'vitest'
import { ACCOUNT_KINDS, LOG_TYPE_CODES, LOG_TYPES } from './contract.ts'

describe('contract copies', () => {
  test('match @hope/api, order included', () => {
    expect(ACCOUNT_KINDS).toEqual(api.ACCOUNT_KINDS)
    expect(LOG_TYPES).toEqual(api.LOG_TYPES)
    expect(LOG_TYPE_CODES).toEqual(api.LOG_TYPE_CODES)
  })
})
