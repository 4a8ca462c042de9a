import type { VipInfo } from '@hope/api'

/**
 * A silver member (level 2) with the default level prices (100 … 10,000 USDT, counted from no
 * level), 1,000 HOPE bought into the split account and 250.5 of it released at 1% a day.
 */
export function vipInfo(changes: Partial<VipInfo> = {}): VipInfo {
  return {
    level: 2,
    levelPrices: ['100', '300', '500', '1000', '3000', '5000', '10000'],
    nodes: [],
    nodePrices: ['1000', '3000', '5000'],
    nodeRewardRates: ['0.01', '0.02', '0.03'],
    split: { total: '1000.000000000000000000', released: '250.5' },
    splitDailyRate: '0.010000',
    applicationEmail: 'apply@example.com',
    ...changes,
  }
}
