/**
 * One key factory for the membership queries (`game/vipInfo`), so that an upgrade refreshes
 * the level, the prices it shows and the split figures together.
 */
export const vipKeys = {
  all: ['vip'] as const,
  info: () => [...vipKeys.all, 'info'] as const,
}
