/**
 * One key factory for the staking and redemption queries (`game/info`, `game/myStake`,
 * `game/stakeList`), so that a consensus entry or a redemption refreshes the summary and the
 * list it shows up in.
 */
export const stakingKeys = {
  all: ['staking'] as const,
  info: () => [...stakingKeys.all, 'info'] as const,
  positions: () => [...stakingKeys.all, 'positions'] as const,
  pledges: () => [...stakingKeys.all, 'pledges'] as const,
}
