import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { databaseTargets, insertTestUser, useTestDatabase } from '../../testing/index.ts'
import { teamAdd, teamStats } from './team.repository.ts'

describe.each(databaseTargets())('team statistics on $name', (target) => {
  const t = useTestDatabase(target)

  test('kept as the tree grows and members buy, they equal a full recount', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            parent: fc.nat(),
            location: fc.constantFrom(1 as const, 2 as const, 3 as const),
            consensus: fc.integer({ min: 0, max: 5 }).map((n) => n * 100),
            community: fc.integer({ min: 0, max: 3 }).map((n) => n * 250),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        async (plan) => {
          const root = await insertTestUser(t.db.pool)
          const members: { id: number; parent: number; location: number }[] = []
          const bought = new Map<number, { consensus: number; community: number }>()
          for (const step of plan) {
            const parent = step.parent % (members.length + 1)
            const inviterId = parent === members.length ? root.id : members[parent]!.id
            const u = await insertTestUser(t.db.pool, { inviterId, location: step.location })
            members.push({ id: u.id, parent: inviterId, location: step.location })
            await teamAdd(t.db.pool, u.id, {
              consensus: String(step.consensus),
              community: String(step.community),
            })
            bought.set(u.id, { consensus: step.consensus, community: step.community })
          }
          // recount: walk each member up to the root, adding to the partition it came through
          const parentOf = new Map(members.map((m) => [m.id, m]))
          const expected = new Map<
            string,
            { people: number; consensus: number; community: number }
          >()
          for (const m of members) {
            let child = m
            let upline = m.parent
            for (;;) {
              const k = `${upline}:${child.location}`
              const e = expected.get(k) ?? { people: 0, consensus: 0, community: 0 }
              e.people += 1
              e.consensus += bought.get(m.id)!.consensus
              e.community += bought.get(m.id)!.community
              expected.set(k, e)
              const next = parentOf.get(upline)
              if (!next) break
              child = next
              upline = next.parent
            }
          }
          for (const id of [root.id, ...members.map((m) => m.id)]) {
            for (const p of await teamStats(t.db.pool, id)) {
              const e = expected.get(`${id}:${p.location}`) ?? {
                people: 0,
                consensus: 0,
                community: 0,
              }
              expect({ id, ...p }).toEqual({
                id,
                location: p.location,
                people: e.people,
                consensus: String(e.consensus),
                community: String(e.community),
              })
            }
          }
        },
      ),
      { numRuns: 8 },
    )
  })
})
