import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import { REPO_ROOT } from '../paths.ts'
import { call, databaseTargets, fundAccount, registerUser, useTestApp } from '../testing/index.ts'

const hasPromtool = spawnSync('promtool', ['--version']).status === 0

/** The value of one sample line, e.g. `hope_withdrawals_open{state="0"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('metrics', () => {
  const t = useTestApp(databaseTargets()[0]!, { env: { METRICS_TOKEN: 'scrape-token-0123456789' } })

  const scrape = (headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress })

  test('from loopback: requests by route, the pool, the books, the event loop and sign-in failures', async () => {
    await fundAccount(t.db.pool, (await registerUser(t.app)).id, '5')
    await call(t.app, 'main/getETLDPrice')
    await call(t.app, 'user/logining', {
      username: `0x${'1'.repeat(40)}`,
      message: `HOPE Login${Date.now()}`,
      signature: `0x${'2'.repeat(130)}`,
    })
    const res = await scrape()
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    const text = res.body
    expect(
      sample(
        text,
        'hope_http_requests_total{route="/api/main/getETLDPrice",method="POST",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(1)
    expect(text).toContain(
      'hope_http_request_duration_seconds_bucket{le="0.005",route="/api/main/getETLDPrice",method="POST"}',
    )
    expect(sample(text, 'hope_signin_failures_total{kind="wallet"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'hope_db_pool_connections{state="waiting"}')).toBe(0)
    expect(sample(text, 'hope_ledger_transfers')).toBeGreaterThan(0)
    // No withdrawal yet: each open state counts 0 and the oldest is 0 s old.
    for (const state of ['0', '1', '5'])
      expect(sample(text, `hope_withdrawals_open{state="${state}"}`)).toBe(0)
    expect(sample(text, 'hope_withdrawal_oldest_open_age_seconds')).toBe(0)
    expect(text).toContain('hope_nodejs_eventloop_lag_seconds')
    expect(sample(text, 'hope_dependency_up{dependency="database"}')).toBe(1)
    expect(sample(text, 'hope_workers_reporting')).toBe(1)
    expect(sample(text, 'hope_metrics_sample_age_seconds{source="database"}')).toBeLessThan(5)
    // Nothing proven yet: coverage 0, unproven since the first user; no chain: unknown (NaN).
    expect(sample(text, 'hope_por_coverage_ratio')).toBe(0)
    expect(sample(text, 'hope_por_snapshot_age_seconds')).toBeGreaterThanOrEqual(0)
    expect(sample(text, 'hope_hot_wallet_balance')).toBeNaN()
    expect(sample(text, 'hope_payout_vault_balance')).toBeNaN()
    expect(sample(text, 'hope_deposit_watcher_blocks_behind')).toBeNaN()
    // Every name is HOPE's own.
    const names = text
      .split('\n')
      .filter((l) => l.startsWith('# TYPE '))
      .map((l) => l.split(' ')[2]!)
    expect(names.length).toBeGreaterThan(20)
    expect(names.filter((n) => !n.startsWith('hope_'))).toEqual([])
    // No label Prometheus would rename (`exported_job`): its own target labels are job and instance.
    const series = text.split('\n').filter((l) => l && !l.startsWith('#'))
    expect(series.filter((l) => /[{,](job|instance)="/.test(l))).toEqual([])
  })

  test('the job lateness gauges name the job in a task label, never job', async () => {
    const { jobLastSuccess, jobStarted, startIntervalJob } = await import('../jobs/interval-job.ts')
    const job = startIntervalJob('metrics probe', async () => ({}), t.app.log, 60_000, {
      runAtStart: true,
    })
    await vi.waitFor(() => expect(jobLastSuccess().has('metrics probe')).toBe(true))
    await job.stop()
    const text = (await scrape()).body
    const started = jobStarted().get('metrics probe')! / 1000
    expect(sample(text, 'hope_job_started_timestamp_seconds{task="metrics probe"}')).toBe(started)
    expect(
      sample(text, 'hope_job_last_success_timestamp_seconds{task="metrics probe"}'),
    ).toBeGreaterThanOrEqual(started)
  })

  test('with the pool exhausted, /metrics answers within 1 s from the last sample, never NaN', async () => {
    await fundAccount(t.db.pool, (await registerUser(t.app)).id, '5')
    const before = (await scrape()).body
    const transfers = sample(before, 'hope_ledger_transfers')!
    expect(transfers).toBeGreaterThan(0)
    // Every connection of the app's pool held: each read of the books waits.
    const pool = t.db.pool
    const held = await Promise.all(
      Array.from({ length: pool.options.max ?? 10 }, () => pool.connect()),
    )
    try {
      expect(pool.idleCount).toBe(0)
      for (let i = 0; i < 3; i++) {
        const started = performance.now()
        const res = await scrape()
        const ms = performance.now() - started
        expect(res.statusCode).toBe(200)
        expect(ms).toBeLessThan(1_000)
        expect(sample(res.body, 'hope_ledger_transfers')).toBe(transfers)
        expect(sample(res.body, 'hope_withdrawal_oldest_open_age_seconds')).toBe(0)
        expect(sample(res.body, 'hope_db_pool_connections{state="in_use"}')).toBe(held.length)
      }
      // The reads of the books wait on the pool: one at a time, never one per scrape.
      expect(pool.waitingCount).toBeLessThanOrEqual(2)
      // The check of the database times out (2 s) and says so; the figures stay.
      await vi.waitFor(
        async () =>
          expect(sample((await scrape()).body, 'hope_dependency_up{dependency="database"}')).toBe(
            0,
          ),
        { timeout: 6_000, interval: 500 },
      )
    } finally {
      for (const c of held) c.release()
    }
  })

  test('from elsewhere only with the token; otherwise not found', async () => {
    const outside = '203.0.113.7'
    expect((await scrape({}, outside)).statusCode).toBe(404)
    expect((await scrape({ authorization: 'Bearer wrong' }, outside)).statusCode).toBe(404)
    const withToken = await scrape({ authorization: 'Bearer scrape-token-0123456789' }, outside)
    expect(withToken.statusCode).toBe(200)
    expect(withToken.body).toContain('hope_http_requests_total')
  })

  test.runIf(hasPromtool)(
    'promtool accepts the metrics, the scrape config and the alert rules',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hope-metrics-'))
      try {
        const file = path.join(dir, 'metrics.txt')
        fs.writeFileSync(file, (await scrape()).body)
        const lint = spawnSync('promtool', ['check', 'metrics'], { input: fs.readFileSync(file) })
        // Node's default metrics (hope_nodejs_*, named by prom-client) keep their names; every
        // metric of HOPE's own passes the linter.
        const complaints = (lint.stderr.toString() + lint.stdout.toString())
          .split('\n')
          .filter((l) => l.trim() && !l.startsWith('hope_nodejs_'))
        expect(complaints).toEqual([])
        const ops = path.join(REPO_ROOT, 'ops/prometheus')
        execFileSync('promtool', ['check', 'config', path.join(ops, 'prometheus.yml')])
        execFileSync('promtool', ['check', 'rules', path.join(ops, 'alerts.yml')])
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    },
  )
})
