// `npm run test:gate`, the first test step of `npm test`: proves that a failure fails the run.
// In a scratch copy of the checkout it plants, for every Vitest project, a test that fails on
// purpose and runs it with the same npm script `npm test` uses; each run must exit non-zero and
// name the planted test. It also plants an unhandled error and a hang (cut short by a tiny time
// limit), and one passing test that must exit 0. If anything ever swallows failures again
// (an exit hook, a reporter, a wrapper), this gate fails first.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'

const root = path.resolve(import.meta.dirname, '../..')

interface Plant {
  /** What the case proves, as printed. */
  name: string
  /** The planted file, relative to the checkout. */
  file: string
  body: string
  /** The npm script and its arguments. */
  script: 'test:unit' | 'test:e2e'
  args: string[]
  env?: Record<string, string>
  /** The run must exit 0 (the control) or not, and its output must contain these. */
  expectPass: boolean
  expectOutput: string[]
}

const failing = (label: string) =>
  `import { expect, test } from 'vitest'\n` +
  `test('planted failure ${label}', () => {\n  expect(1).toBe(2)\n})\n`

/** Each project of vitest.config.ts, and the browser journeys' own config. */
const PROJECTS: { project: string; dir: string; suffix: string }[] = [
  { project: 'api', dir: 'packages/api/src', suffix: '.test.ts' },
  { project: 'por-verify', dir: 'packages/por-verify/src', suffix: '.test.ts' },
  { project: 'server', dir: 'apps/server/src', suffix: '.test.ts' },
  { project: 'web', dir: 'apps/web/src', suffix: '.test.tsx' },
  { project: 'admin', dir: 'apps/admin/src', suffix: '.test.tsx' },
  { project: 'faults', dir: 'tests/faults', suffix: '.test.ts' },
]

const plants: Plant[] = [
  ...PROJECTS.map(({ project, dir, suffix }): Plant => {
    const file = `${dir}/zz-gate-${project}-fails${suffix}`
    return {
      name: `a failing test in ${project}`,
      file,
      body: failing(project),
      script: 'test:unit',
      args: ['--project', project, file],
      expectPass: false,
      expectOutput: [`planted failure ${project}`],
    }
  }),
  {
    name: 'a failing browser journey (e2e)',
    file: 'e2e/zz-gate-e2e-fails.e2e.test.ts',
    body: failing('e2e'),
    script: 'test:e2e',
    args: ['e2e/zz-gate-e2e-fails.e2e.test.ts'],
    expectPass: false,
    expectOutput: ['planted failure e2e'],
  },
  {
    name: 'an unhandled error after a passing test',
    file: 'packages/api/src/zz-gate-unhandled.test.ts',
    body:
      `import { expect, test } from 'vitest'\n` +
      `test('passes, then throws outside the test', async () => {\n` +
      `  setTimeout(() => {\n    throw new Error('planted unhandled error')\n  }, 0)\n` +
      `  await new Promise((r) => setTimeout(r, 50))\n  expect(1).toBe(1)\n})\n`,
    script: 'test:unit',
    args: ['--project', 'api', 'packages/api/src/zz-gate-unhandled.test.ts'],
    expectPass: false,
    expectOutput: ['planted unhandled error'],
  },
  {
    name: 'a run that hangs past its time',
    file: 'packages/api/src/zz-gate-hangs.test.ts',
    body:
      `import { test } from 'vitest'\n` +
      `test('never ends', () => new Promise<void>(() => {}), 3_600_000)\n`,
    script: 'test:unit',
    args: ['--project', 'api', 'packages/api/src/zz-gate-hangs.test.ts'],
    env: { HOPE_TEST_TIMEOUT_S: '8' },
    expectPass: false,
    expectOutput: ['passed its limit'],
  },
  {
    name: 'a passing test (the control)',
    file: 'packages/api/src/zz-gate-passes.test.ts',
    body: `import { expect, test } from 'vitest'\ntest('planted pass', () => {\n  expect(2).toBe(2)\n})\n`,
    script: 'test:unit',
    args: ['--project', 'api', 'packages/api/src/zz-gate-passes.test.ts'],
    expectPass: true,
    expectOutput: ['1 passed'],
  },
]

/**
 * The checkout's files (tracked, and new ones not ignored) copied into a scratch folder, with
 * the installed packages and the builds linked in, so planting changes nothing in the checkout.
 */
function scratchCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-gate-'))
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter(Boolean)
  for (const f of files) {
    const from = path.join(root, f)
    if (!fs.existsSync(from)) continue // deleted, not yet committed
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true })
    fs.copyFileSync(from, path.join(dir, f))
  }
  const workspaces = ['.', 'packages/api', 'packages/por-verify', 'apps/server', 'apps/web']
  workspaces.push('apps/admin', 'e2e', 'tests/faults')
  for (const ws of workspaces) {
    for (const linked of ['node_modules', 'dist']) {
      const from = path.join(root, ws, linked)
      if (fs.existsSync(from)) fs.symlinkSync(from, path.join(dir, ws, linked))
    }
  }
  return dir
}

interface Ran {
  code: number | null
  output: string
  seconds: number
}

function runNpm(cwd: string, plant: Plant): Promise<Ran> {
  const t0 = performance.now()
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', plant.script, '--', ...plant.args], {
      cwd,
      env: { ...process.env, ...plant.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('close', (code) => resolve({ code, output, seconds: (performance.now() - t0) / 1000 }))
  })
}

function verdict(plant: Plant, ran: Ran): string | null {
  const passed = ran.code === 0
  if (passed !== plant.expectPass)
    return plant.expectPass
      ? `exited ${ran.code}, expected 0`
      : 'exited 0: the failure was swallowed'
  const missing = plant.expectOutput.filter((s) => !ran.output.includes(s))
  if (missing.length > 0)
    return `its output does not mention ${missing.map((m) => `"${m}"`).join(', ')}`
  return null
}

const t0 = performance.now()
const scratch = scratchCopy()
const concurrency = 3
const problems: string[] = []
try {
  for (const plant of plants) fs.writeFileSync(path.join(scratch, plant.file), plant.body)
  // The browser journey starts the whole app: it goes first, the quick ones share the rest.
  const queue = [...plants].sort(
    (a, b) => Number(b.script === 'test:e2e') - Number(a.script === 'test:e2e'),
  )
  const worker = async () => {
    for (let plant = queue.shift(); plant; plant = queue.shift()) {
      const ran = await runNpm(scratch, plant)
      const problem = verdict(plant, ran)
      console.info(`gate: ${problem ? 'FAIL' : 'ok  '} ${plant.name} (${ran.seconds.toFixed(1)} s)`)
      if (problem) problems.push(`${plant.name}: ${problem}\n${ran.output.slice(-3000)}`)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
} finally {
  fs.rmSync(scratch, { recursive: true, force: true })
}
const seconds = ((performance.now() - t0) / 1000).toFixed(1)
if (problems.length > 0) {
  console.error(`\nThe failure gate FAILED in ${seconds} s:\n\n${problems.join('\n\n')}`)
  process.exit(1)
}
console.info(`gate: a failure fails the run in every project (${seconds} s)`)
