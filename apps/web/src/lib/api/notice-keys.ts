/**
 * One key factory for the security notices, so that reading them refreshes both the list and
 * the bell's count, and an action that leaves a notice (a withdrawal) refreshes the bell.
 */
export const noticeKeys = {
  all: ['notices'] as const,
  list: () => [...noticeKeys.all, 'list'] as const,
  /** The bell's unread count. */
  unread: () => [...noticeKeys.all, 'unread'] as const,
}
