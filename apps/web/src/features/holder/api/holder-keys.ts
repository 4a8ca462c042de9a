/**
 * One key factory for the queries of the holder and activation screens (`game/vipInfo`,
 * `game/groupZt`), so that a node purchase or an activation refreshes what it changed.
 */
export const holderKeys = {
  all: ['holder'] as const,
  vipInfo: () => [...holderKeys.all, 'vipInfo'] as const,
  members: () => [...holderKeys.all, 'members'] as const,
}
