/**
 * One key factory for the team queries (`game/groupTj`, `game/groupZt`, `game/earnings`): the
 * team screen and the activation's member picker read the direct members under one key, so an
 * activation refreshes both.
 */
export const teamKeys = {
  all: ['team'] as const,
  stats: () => [...teamKeys.all, 'stats'] as const,
  members: () => [...teamKeys.all, 'members'] as const,
  earnings: () => [...teamKeys.all, 'earnings'] as const,
}
