/**
 * One key factory for the chat queries, so that reading the conversation refreshes the unread
 * badge wherever it shows.
 */
export const chatKeys = {
  all: ['chat'] as const,
  unread: () => [...chatKeys.all, 'unread'] as const,
  contact: () => [...chatKeys.all, 'contact'] as const,
}
