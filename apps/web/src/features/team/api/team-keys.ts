/**
 * One key factory for the team and community queries (`game/groupTj`, `game/groupZt`,
 * `game/earnings`), so that a screen's pull to refresh and any later change share one prefix.
 */
export const teamKeys = {
  all: ['team'] as const,
  stats: () => [...teamKeys.all, 'stats'] as const,
  members: () => [...teamKeys.all, 'members'] as const,
  earnings: () => [...teamKeys.all, 'earnings'] as const,
}
