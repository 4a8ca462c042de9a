/**
 * One key factory for the `game/*` queries, so that a consensus entry or a redemption
 * refreshes the summary and the list it shows up in.
 */
export const gameKeys = {
  all: ['game'] as const,
  info: () => [...gameKeys.all, 'info'] as const,
  positions: () => [...gameKeys.all, 'positions'] as const,
  pledges: () => [...gameKeys.all, 'pledges'] as const,
}
