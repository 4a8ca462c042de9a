// The tests that may skip, each with why and when: any other skipped test fails the run, so a
// test cannot quietly stop running (a condition that is never true, a `.skip` left behind).
import { spawnSync } from 'node:child_process'

export interface AllowedSkip {
  /** Matches "<file> > <test's full name>". */
  test: RegExp
  /** Why it may skip: said in the run's output when it does. */
  why: string
  /** Whether the skip is allowed in this run (the condition the test itself depends on). */
  when: () => boolean
}

const hasPromtool = () => spawnSync('promtool', ['--version']).status === 0

export const ALLOWED_SKIPS: AllowedSkip[] = [
  {
    test: /database\.test\.ts > .*cannot reach gives a clear message/,
    why: 'only as root: PostgreSQL runs as another user there, whom the folder can shut out',
    when: () => process.getuid?.() !== 0,
  },
  {
    test: /(alerts|metrics)\.test\.ts > /,
    why: 'needs promtool (Debian package prometheus), which .ci/run installs',
    when: () => !hasPromtool() && process.env.CI !== 'true',
  },
  {
    test: /tests\/faults\/cluster(-jobs)?\.test\.ts > /,
    why: 'needs a PostgreSQL server shared by three processes (TEST_DATABASE_URL), which .ci/run sets',
    when: () => !process.env.TEST_DATABASE_URL,
  },
  {
    test: /tests\/faults\/cluster-jobs\.test\.ts > .*REDIS_PREFIX/,
    why: 'needs Redis (TEST_REDIS_URL), which .ci/run starts',
    when: () => !process.env.TEST_REDIS_URL,
  },
]

/** The skipped tests no entry allows in this run. */
export function unexplainedSkips(skipped: string[], root: string): string[] {
  return skipped.filter((name) => {
    const relative = name.startsWith(root) ? name.slice(root.length + 1) : name
    return !ALLOWED_SKIPS.some((s) => s.test.test(relative) && s.when())
  })
}
