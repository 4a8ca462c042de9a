// A Vitest reporter that writes what the run found to the file named by HOPE_TEST_OUTCOME, so
// run-vitest.ts can decide pass or fail from the tests themselves, not only from the exit status
// (a library's exit hook once turned a failed run's status into 0).
import fs from 'node:fs'
import type { Reporter, TestModule } from 'vitest/node'

/** What run-vitest.ts reads back. */
export interface RunOutcome {
  reason: 'passed' | 'failed' | 'interrupted'
  files: number
  failedFiles: string[]
  failedTests: string[]
  /** Tests that did not run (skip, skipIf, runIf, todo), as "<file> > <full name>". */
  skippedTests: string[]
  unhandledErrors: string[]
}

function testsOf(module: TestModule, state: 'failed' | 'skipped'): string[] {
  const names: string[] = []
  for (const test of module.children.allTests()) {
    if (test.result().state === state) names.push(`${module.moduleId} > ${test.fullName}`)
  }
  return names
}

export default class OutcomeReporter implements Reporter {
  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<{ message?: string; name?: string }>,
    reason: RunOutcome['reason'],
  ): void {
    const target = process.env.HOPE_TEST_OUTCOME
    if (!target) return
    const outcome: RunOutcome = {
      reason,
      files: modules.length,
      failedFiles: modules.filter((m) => m.state() === 'failed').map((m) => m.moduleId),
      failedTests: modules.flatMap((m) => testsOf(m, 'failed')),
      skippedTests: modules.flatMap((m) => testsOf(m, 'skipped')),
      unhandledErrors: unhandledErrors.map((e) => `${e.name ?? 'Error'}: ${e.message ?? ''}`),
    }
    fs.writeFileSync(target, JSON.stringify(outcome, null, 2))
  }
}
