import type { OperatorRole } from '@hope/api'

/** The console's sections, in menu order, with the roles that see each. */
export const SECTIONS = {
  dashboard: ['admin', 'finance', 'content', 'support'],
  users: ['admin', 'finance', 'support'],
  withdrawals: ['admin', 'finance'],
  deposits: ['admin', 'finance'],
  settlement: ['admin', 'finance'],
  reserves: ['admin', 'finance'],
  content: ['admin', 'content'],
  chat: ['admin', 'support'],
  settings: ['admin'],
  audit: ['admin'],
} as const satisfies Record<string, readonly OperatorRole[]>

export type Section = keyof typeof SECTIONS

/**
 * The sections an operator of `role` sees, in menu order.
 * @example sectionsFor('content') // ['dashboard', 'content']
 */
export function sectionsFor(role: OperatorRole): Section[] {
  return (Object.keys(SECTIONS) as Section[]).filter((s) =>
    (SECTIONS[s] as readonly OperatorRole[]).includes(role),
  )
}

/** The hash path of a section (`#/users`); the dashboard is the root. */
export function sectionPath(section: Section): string {
  return section === 'dashboard' ? '/' : `/${section}`
}
