// Node rewards (DESIGN §7), over integer units (lib/units.ts).
import { PPM } from '../../lib/units.ts'

/**
 * Node rewards of a day: holders of each node type share `rates[type]` ppm of the value
 * allocated in the community system that day, equally, rounded down (the rest stays).
 */
export function nodeShares(
  allocated: bigint,
  holders: readonly { userId: number; type: 1 | 2 | 3 }[],
  rates: readonly [bigint, bigint, bigint],
): { userId: number; type: 1 | 2 | 3; value: bigint }[] {
  const out: { userId: number; type: 1 | 2 | 3; value: bigint }[] = []
  for (const type of [1, 2, 3] as const) {
    const group = holders.filter((h) => h.type === type)
    if (!group.length) continue
    const pot = (allocated * rates[type - 1]!) / PPM
    const each = pot / BigInt(group.length)
    if (each > 0n) for (const h of group) out.push({ userId: h.userId, type, value: each })
  }
  return out
}
