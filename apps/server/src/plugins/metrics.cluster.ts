// Metrics over the workers of one primary (WEB_CONCURRENCY > 1): a scrape reaches one worker,
// which asks the primary; the primary asks every worker for its metrics over IPC and answers
// them merged (prom-client's aggregation: counters summed, each gauge by its `aggregator`).
import cluster, { type Worker } from 'node:cluster'
import client, { AggregatorRegistry } from 'prom-client'

/** How long the primary waits for the workers' metrics; one that has not answered is left out. */
const WORKERS_WAIT_MS = 600
/** How long a worker waits for the primary's merged answer before answering its own. */
const PRIMARY_WAIT_MS = 900

const ASK_PRIMARY = 'metrics:merged?'
const PRIMARY_ANSWER = 'metrics:merged'
const ASK_WORKER = 'metrics:own?'
const WORKER_ANSWER = 'metrics:own'

interface MetricsMessage {
  hope?: string
  id?: number
  text?: string
  metrics?: client.MetricObjectWithValues<client.MetricValue<string>>[]
}

/** Whether this process is a worker of a primary that merges the metrics. */
export const inCluster = (): boolean => cluster.isWorker && typeof process.send === 'function'

/** In a worker: answers the primary's requests for this worker's metrics (as JSON). */
export function answerMetricsRequests(registry: client.Registry): void {
  process.on('message', (msg: MetricsMessage) => {
    if (msg?.hope !== ASK_WORKER) return
    void registry.getMetricsAsJSON().then(
      (metrics) => process.send?.({ hope: WORKER_ANSWER, id: msg.id, metrics }),
      () => process.send?.({ hope: WORKER_ANSWER, id: msg.id, metrics: [] }),
    )
  })
}

let nextId = 0
/** In a worker: every worker's metrics merged by the primary, or null when it does not answer in time. */
export function askPrimaryForMetrics(): Promise<string | null> {
  const id = nextId++
  return new Promise((resolve) => {
    const done = (text: string | null) => {
      clearTimeout(timer)
      process.off('message', onMessage)
      resolve(text)
    }
    const onMessage = (msg: MetricsMessage) => {
      if (msg?.hope === PRIMARY_ANSWER && msg.id === id) done(msg.text ?? null)
    }
    const timer = setTimeout(() => done(null), PRIMARY_WAIT_MS)
    process.on('message', onMessage)
    process.send?.({ hope: ASK_PRIMARY, id })
  })
}

/** In the primary: answers each worker's request with every connected worker's metrics merged. */
export function serveMergedMetrics(): void {
  let nextRequest = 0
  const pending = new Map<number, (worker: Worker, msg: MetricsMessage) => void>()
  cluster.on('message', (worker, msg: MetricsMessage) => {
    if (msg?.hope === WORKER_ANSWER && typeof msg.id === 'number')
      pending.get(msg.id)?.(worker, msg)
    if (msg?.hope !== ASK_PRIMARY) return
    const id = nextRequest++
    const workers = Object.values(cluster.workers ?? {}).filter(
      (w): w is Worker => w !== undefined && w.isConnected(),
    )
    const answers: NonNullable<MetricsMessage['metrics']>[] = []
    const finish = async () => {
      clearTimeout(timer)
      pending.delete(id)
      const text = answers.length ? await AggregatorRegistry.aggregate(answers).metrics() : null
      if (worker.isConnected()) worker.send({ hope: PRIMARY_ANSWER, id: msg.id, text })
    }
    const timer = setTimeout(() => void finish(), WORKERS_WAIT_MS)
    const waitingFor = new Set(workers)
    pending.set(id, (from, answer) => {
      if (!waitingFor.delete(from)) return
      answers.push(answer.metrics ?? [])
      if (!waitingFor.size) void finish()
    })
    for (const w of workers) w.send({ hope: ASK_WORKER, id })
  })
}
