import type { FastifyBaseLogger } from 'fastify'
import type { JobDefinition } from './job.ts'

/** When each job (by name) last finished a run without failing, in this process: ms since epoch. */
const lastSuccessMs = new Map<string, number>()

/** When each job (by name) was started in this process: ms since epoch. */
const startedMs = new Map<string, number>()

/** Each job's last successful run in this process, for the metrics. */
export function jobLastSuccess(): ReadonlyMap<string, number> {
  return lastSuccessMs
}

/**
 * When each job was started in this process, for the metrics: a job that has never finished a
 * run is late counting from its start, so an alert sees it although it has no last success.
 */
export function jobStarted(): ReadonlyMap<string, number> {
  return startedMs
}

/**
 * Runs `tick` every `intervalMs` (and right away with `runAtStart`), one run at a time; a
 * failed run is logged and the next one retries. The ticks themselves take an advisory lock, so
 * several processes may run this.
 */
export function startIntervalJob(
  name: string,
  tick: () => Promise<object>,
  log: FastifyBaseLogger,
  intervalMs = 2_000,
  opts: { runAtStart?: boolean } = {},
) {
  let running = false
  let stopped = false
  const run = async () => {
    if (running || stopped) return
    running = true
    try {
      const report = await tick()
      const busy = Object.entries(report).some(
        ([k, v]) => k !== 'head' && k !== 'scannedTo' && typeof v === 'number' && v > 0,
      )
      if (busy) log.info({ job: name, report }, name)
      lastSuccessMs.set(name, Date.now())
    } catch (err) {
      log.warn({ err, job: name }, `${name} failed; retrying`)
    } finally {
      running = false
    }
  }
  if (!startedMs.has(name)) startedMs.set(name, Date.now())
  const timer = setInterval(run, intervalMs)
  if (opts.runAtStart) void run()
  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      while (running) await new Promise((r) => setTimeout(r, 50))
    },
  }
}

/** Starts a job from its definition. */
export function startJob(job: JobDefinition, log: FastifyBaseLogger) {
  return startIntervalJob(job.name, job.tick, log, job.intervalMs, {
    runAtStart: job.runAtStart ?? false,
  })
}
