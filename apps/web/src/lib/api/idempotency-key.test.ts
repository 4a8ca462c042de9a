import { renderHook } from '@testing-library/react'
import { expect, test } from 'vitest'
import { newIdempotencyKey, useConfirmationKey } from './idempotency-key.ts'

test('idempotency keys fit the contract and differ', () => {
  const a = newIdempotencyKey()
  expect(a).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
  expect(newIdempotencyKey()).not.toBe(a)
})

test('a confirmation keeps its key until it is dropped', () => {
  const { result, rerender } = renderHook(() => useConfirmationKey())
  const first = result.current.take()
  rerender()
  expect(result.current.take()).toBe(first)
  result.current.drop()
  expect(result.current.take()).not.toBe(first)
})
