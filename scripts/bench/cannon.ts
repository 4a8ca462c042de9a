// The load generator of the `workers` group, in a process of its own so that its CPU is its own
// and its priority can be set apart from the server's: saturates the target for a warm-up,
// says `start`, saturates it for the measured seconds, then answers its figures and the CPU it
// used over IPC. Argument: one JSON object {target, connections, warmupSeconds, seconds}.
import { saturate, type LoadResult, type LoadTarget } from './load.ts'

export interface CannonJob {
  target: LoadTarget
  connections: number
  warmupSeconds: number
  seconds: number
}

export type CannonMessage =
  { type: 'start' } | { type: 'done'; result: LoadResult; cpuSeconds: number; wallSeconds: number }

const job = JSON.parse(process.argv[2]!) as CannonJob
const send = (m: CannonMessage) => process.send!(m)

await saturate(job.target, { connections: job.connections, seconds: job.warmupSeconds })
send({ type: 'start' })
const cpu0 = process.cpuUsage()
const t0 = performance.now()
const result = await saturate(job.target, { connections: job.connections, seconds: job.seconds })
const cpu = process.cpuUsage(cpu0)
send({
  type: 'done',
  result,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
  wallSeconds: (performance.now() - t0) / 1000,
})
process.disconnect()
