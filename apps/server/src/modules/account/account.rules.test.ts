import { describe, expect, test } from 'vitest'
import { isInDownline } from './account.rules.ts'

describe('downline rule', () => {
  // root 1 → 2 → 3; 1 → 4 (sibling of 2)
  const users = {
    2: { id: 2, ancestorIds: [1] },
    3: { id: 3, ancestorIds: [1, 2] },
    4: { id: 4, ancestorIds: [1] },
  }
  test('direct and deeper members are downline', () => {
    expect(isInDownline(1, users[2])).toBe(true)
    expect(isInDownline(1, users[3])).toBe(true)
    expect(isInDownline(2, users[3])).toBe(true)
  })
  test('self, siblings and uplines are not', () => {
    expect(isInDownline(2, users[2])).toBe(false)
    expect(isInDownline(2, users[4])).toBe(false)
    expect(isInDownline(3, users[2])).toBe(false)
  })
})
