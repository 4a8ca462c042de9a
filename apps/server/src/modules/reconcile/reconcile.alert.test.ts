import { execFileSync, spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../../paths.ts'

const hasPromtool = spawnSync('promtool', ['--version']).status === 0

describe("the alert on the chain scan's alarms", () => {
  test.runIf(hasPromtool)('pages while an alarm is open, and within the hour of one raised', () => {
    const tests = path.join(REPO_ROOT, 'ops/prometheus/alerts.test.yml')
    expect(execFileSync('promtool', ['test', 'rules', tests]).toString()).toMatch(/SUCCESS/)
  })
})
