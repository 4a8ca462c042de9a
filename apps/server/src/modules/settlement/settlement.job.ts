import type pg from 'pg'
import type { JobDefinition } from '../../jobs/job.ts'
import { AppError } from '../../lib/app-error.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { isDayDone } from './settlement.repository.ts'
import { settlementDayDue } from './settlement.rules.ts'
import type { SettlementService } from './settlement.service.ts'

/** The scheduled side of the daily settlement; its tick runs `settleDue` every minute. */
export function createSettlementJob(deps: {
  pool: pg.Pool
  settings: SettingsService
  settlement: SettlementService
}) {
  const { pool, settings, settlement } = deps
  /** Runs the due day once it is due and not yet done. */
  async function settleDue(now = Date.now()): Promise<{ settled: number }> {
    const s = await settings.get()
    const day = settlementDayDue(now, s.settlementUtcOffsetMinutes, s.settlementTime)
    if (await isDayDone(pool, day)) return { settled: 0 }
    // A run already under way (another instance, an operator) is not an error here.
    const run = await settlement.settle(day).catch((e: unknown) => {
      if (e instanceof AppError && e.reason === 'already_resolved') return null
      throw e
    })
    return { settled: run?.positions ?? 0 }
  }
  // Every minute; the run itself takes an advisory lock.
  return {
    name: 'daily settlement',
    intervalMs: 60_000,
    tick: () => settleDue(),
    settleDue,
  } satisfies JobDefinition & { settleDue: typeof settleDue }
}
