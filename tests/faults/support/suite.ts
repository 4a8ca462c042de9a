import { createOperators, requestStats, type Operators } from './api.ts'
import type { HopeServer } from './server.ts'

/** Starts the app and signs in its finance and admin operators: how a file's tests begin. */
export async function startWithOperators(server: HopeServer): Promise<Operators> {
  await server.start()
  return createOperators(server)
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
