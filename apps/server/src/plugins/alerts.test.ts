import { execFileSync, spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { REPO_ROOT } from '../paths.ts'

const hasPromtool = spawnSync('promtool', ['--version']).status === 0
const ops = path.join(REPO_ROOT, 'ops/prometheus')

describe('the alert rules (ops/prometheus)', () => {
  // CI installs promtool (.ci/run): there a missing one fails rather than skips.
  test.runIf(hasPromtool || process.env.CI === 'true')(
    'every alert fires on its input series and stays quiet otherwise (promtool test rules)',
    () => {
      const out = execFileSync('promtool', ['test', 'rules', path.join(ops, 'alerts.test.yml')])
      expect(out.toString()).toMatch(/SUCCESS/)
    },
  )

  test('every alert has a promtool case that expects it to fire', async () => {
    const fs = await import('node:fs')
    const rules = fs.readFileSync(path.join(ops, 'alerts.yml'), 'utf8')
    const cases = fs.readFileSync(path.join(ops, 'alerts.test.yml'), 'utf8')
    const alerts = [...rules.matchAll(/^\s+- alert: (\w+)$/gm)].map((m) => m[1]!)
    expect(alerts.length).toBeGreaterThan(10)
    // A case naming the alert, followed by an expected alert (not only `exp_alerts: []`).
    const firing = new Set(
      [...cases.matchAll(/alertname: (\w+)\n\s+exp_alerts:\n/g)].map((m) => m[1]!),
    )
    expect(alerts.filter((a) => !firing.has(a))).toEqual([])
    const quiet = new Set(
      [...cases.matchAll(/alertname: (\w+)\n\s+exp_alerts: \[\]/g)].map((m) => m[1]!),
    )
    expect(alerts.filter((a) => !quiet.has(a))).toEqual([])
  })
})
