import { expect, test } from 'vitest'
import { createTurns } from './turns.ts'

test('runs at most the allowed number at once, in arrival order, and goes on after a failure', async () => {
  const turns = createTurns(2)
  let now = 0
  let most = 0
  const order: number[] = []
  const work = (i: number) =>
    turns.run(async () => {
      now += 1
      most = Math.max(most, now)
      await new Promise((r) => setTimeout(r, 5))
      order.push(i)
      now -= 1
      if (i === 3) throw new Error('refused')
      return i
    })
  const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => work(i)))
  expect(most).toBe(2)
  expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1)
  expect(order.slice(0, 2).sort()).toEqual([0, 1])
  expect(turns.waiting()).toBe(0)
  expect(await turns.run(async () => 'after')).toBe('after')
})
