import type { DirectMember, VipInfo } from '@hope/api'
import { directMember as teamMember } from './team-fixtures.ts'

/**
 * A silver member (level 2) holding a guarding node; levels cost 100 .. 10,000 USDT in all,
 * nodes 300 / 3,000 / 5,000 USDT for 1 / 2 / 3 % of the new coin value.
 */
export function vipInfo(changes: Partial<VipInfo> = {}): VipInfo {
  return {
    level: 2,
    levelPrices: ['100', '300', '600', '1000', '2000', '5000', '10000'],
    nodes: [{ type: 2, source: 'bought' }],
    nodePrices: ['300.000000', '3000', '5000'],
    nodeRewardRates: ['0.010000', '0.02', '0.03'],
    split: { total: '1000', released: '10' },
    splitDailyRate: '0.01',
    applicationEmail: 'apply@hope.example',
    ...changes,
  }
}

/** A direct member, by default at level 2 (silver) in the left partition with a team. */
export function directMember(n: number, changes: Partial<DirectMember> = {}): DirectMember {
  return teamMember(n, { level: 2, location: 1, teamPeople: 3, consensus: '500', ...changes })
}
