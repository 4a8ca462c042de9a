import { ROUTES, type OperatorRole, type RoutePath } from '@hope/api'

/**
 * Whether an operator of `role` may call `path`, by the roles the contract declares for it;
 * the console hides what the server would refuse.
 * @example canCall('support', 'admin/credit') // false
 */
export function canCall(role: OperatorRole, path: RoutePath): boolean {
  const roles: readonly OperatorRole[] | undefined = (
    ROUTES[path] as { roles?: readonly OperatorRole[] }
  ).roles
  return roles?.includes(role) ?? false
}
