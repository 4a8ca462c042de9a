// `vitest run` whose verdict cannot be swallowed: the run passes only when Vitest exits 0 AND
// its outcome (written by outcome-reporter.ts) shows test files run, none failed and no
// unhandled error, all within --timeout-minutes; a run past its time is killed with its
// whole process group. Arguments after the options go to Vitest as they are.
//
//   node scripts/test/run-vitest.ts [--timeout-minutes N] [vitest args…]
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { RunOutcome } from './outcome-reporter.ts'
import { unexplainedSkips } from './skips.ts'

const root = path.resolve(import.meta.dirname, '../..')
const args = process.argv.slice(2)
let timeoutMinutes = 60
const at = args.indexOf('--timeout-minutes')
if (at >= 0) {
  timeoutMinutes = Number(args[at + 1])
  args.splice(at, 2)
}
// HOPE_TEST_TIMEOUT_S overrides (the failure gate uses it to prove a hang is cut short).
const timeoutMs = process.env.HOPE_TEST_TIMEOUT_S
  ? Number(process.env.HOPE_TEST_TIMEOUT_S) * 1000
  : timeoutMinutes * 60_000
if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
  console.error(`run-vitest: the time limit must be a positive number of minutes`)
  process.exit(2)
}

const outcomeFile = path.join(
  fs.mkdtempSync(path.join(os.tmpdir(), 'hope-test-outcome-')),
  'outcome.json',
)
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs')
const child = spawn(
  process.execPath,
  [
    vitest,
    'run',
    '--reporter=default',
    `--reporter=${path.join(import.meta.dirname, 'outcome-reporter.ts')}`,
    ...args,
  ],
  {
    stdio: 'inherit',
    // Its own process group, so a run past its time is stopped with everything it started.
    detached: true,
    env: { ...process.env, HOPE_TEST_OUTCOME: outcomeFile },
  },
)

const killGroup = (signal: NodeJS.Signals) => {
  try {
    process.kill(-child.pid!, signal)
  } catch {
    // already gone
  }
}
let timedOut = false
const timer = setTimeout(() => {
  timedOut = true
  console.error(`\nrun-vitest: the run passed its limit of ${timeoutMs / 1000} s; stopping it`)
  killGroup('SIGTERM')
  setTimeout(() => killGroup('SIGKILL'), 10_000).unref()
}, timeoutMs)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killGroup(signal)
    setTimeout(() => killGroup('SIGKILL'), 10_000).unref()
  })
}

const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
  child.on('exit', (c, s) => resolve([c, s])),
)
clearTimeout(timer)

function readOutcome(): RunOutcome | null {
  try {
    return JSON.parse(fs.readFileSync(outcomeFile, 'utf8')) as RunOutcome
  } catch {
    return null
  }
}
const outcome = readOutcome()
fs.rmSync(path.dirname(outcomeFile), { recursive: true, force: true })

const problems: string[] = []
if (timedOut) problems.push(`it ran past its limit of ${timeoutMs / 1000} s`)
if (signal) problems.push(`Vitest was stopped by ${signal}`)
else if (code !== 0) problems.push(`Vitest exited with status ${code}`)
if (!outcome) problems.push('Vitest ended without reporting an outcome')
else {
  if (outcome.reason !== 'passed') problems.push(`the run ended as ${outcome.reason}`)
  if (outcome.files === 0) problems.push('no test file ran')
  for (const f of outcome.failedTests) problems.push(`failed: ${path.relative(root, f)}`)
  if (outcome.failedTests.length === 0)
    for (const f of outcome.failedFiles) problems.push(`failed: ${path.relative(root, f)}`)
  for (const e of outcome.unhandledErrors) problems.push(`unhandled: ${e}`)
  // A test that did not run passes nothing: only the skips scripts/test/skips.ts explains.
  for (const name of unexplainedSkips(outcome.skippedTests ?? [], root))
    problems.push(`skipped with no reason in scripts/test/skips.ts: ${path.relative(root, name)}`)
  const allowed =
    (outcome.skippedTests ?? []).length - unexplainedSkips(outcome.skippedTests ?? [], root).length
  if (allowed > 0)
    console.info(`run-vitest: ${allowed} test(s) skipped as scripts/test/skips.ts allows`)
}
if (problems.length > 0) {
  console.error(`\nrun-vitest: the run FAILED:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  process.exit(code && code !== 0 ? code : 1)
}
