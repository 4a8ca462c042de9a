import { DEMO_ROOT } from '../../../apps/server/src/db/seed.ts'
import {
  allowFreshPayouts,
  createOperators,
  credit,
  registerUser,
  requestStats,
  type Operators,
  type User,
} from './api.ts'
import type { HopeServer } from './server.ts'

/** Starts the app and signs in its finance and admin operators: how a file's tests begin. */
export async function startWithOperators(
  server: HopeServer,
  env: NodeJS.ProcessEnv = {},
): Promise<Operators> {
  await server.start(env)
  return createOperators(server, env)
}

/**
 * Starts the app (with `env`) and signs in its operators, then registers a member under the demo
 * root: with `freshPayouts`, payouts to fresh addresses are allowed first; with `credit`, the
 * member holds that much USDT.
 */
export async function startWithMember(
  server: HopeServer,
  opts: { env?: NodeJS.ProcessEnv; freshPayouts?: boolean; credit?: string } = {},
): Promise<{ ops: Operators; user: User }> {
  const ops = await startWithOperators(server, opts.env)
  if (opts.freshPayouts) await allowFreshPayouts(server, ops)
  const user = await registerUser(server, DEMO_ROOT.userName)
  if (opts.credit) await credit(server, ops, user.userName, opts.credit)
  return { ops, user }
}

/**
 * After a file's tests: the app's one-line summary under `name`, then the app and what it left
 * behind gone, then the lines of `report`.
 */
export async function disposeWithSummary(
  server: HopeServer | undefined,
  name: string,
  report: readonly string[] = [],
): Promise<void> {
  if (server) console.info(server.summary(name, requestStats.answered))
  await server?.dispose()
  if (report.length) console.info(report.join('\n'))
}
