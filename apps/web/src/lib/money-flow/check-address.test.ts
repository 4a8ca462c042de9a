import { describe, expect, test } from 'vitest'
import { addressProblem } from './check-address.ts'

describe('addressProblem', () => {
  test.each([
    [undefined, 'checking'],
    [{ registered: true, self: true, inDownline: false }, 'self'],
    [{ registered: false, self: false, inDownline: false }, 'notRegistered'],
    [{ registered: true, self: false, inDownline: false }, 'notDownline'],
    [{ registered: true, self: false, inDownline: true }, null],
  ] as const)('%j → %s', (check, problem) => {
    expect(addressProblem(check)).toBe(problem)
  })
})
