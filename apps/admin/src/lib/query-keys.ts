/**
 * Keys several sections refresh: a review or a settlement changes what the dashboard counts.
 */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  summary: () => [...dashboardKeys.all, 'summary'] as const,
}
