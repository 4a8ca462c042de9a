/**
 * A background job as a module defines it (`<module>.job.ts`): `tick` runs every `intervalMs`,
 * and right away too with `runAtStart`. A tick takes its own advisory lock, so several server
 * processes may run the same job; it returns a report, logged when it counts any work done.
 */
export interface JobDefinition {
  name: string
  intervalMs: number
  runAtStart?: boolean
  tick: () => Promise<object>
}
