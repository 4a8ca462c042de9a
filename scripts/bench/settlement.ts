// Settlement benchmark: generated members, trees and consensus positions (10k, 100k, 1M by
// default, BENCH_POSITIONS), the daily settlement of one day timed on PostgreSQL, then the
// ledger verification; rows of the bench table, 1M positions held to 5 minutes.
import { migrate } from '../../apps/server/src/db/migrate.ts'
import { openDatabase } from '../../apps/server/src/db/pool.ts'
import { seedDemo } from '../../apps/server/src/db/seed.ts'
import { createLedgerService } from '../../apps/server/src/modules/ledger/ledger.service.ts'
import { verifyLedger } from '../../apps/server/src/modules/ledger/ledger.verify.ts'
import { createSaleService } from '../../apps/server/src/modules/sale/sale.service.ts'
import { generateEconomy } from '../../apps/server/test-support/settlement.generate.ts'
import { createSettlementService } from '../../apps/server/src/modules/settlement/settlement.service.ts'
import { createSettingsService } from '../../apps/server/src/modules/settings/settings.service.ts'
import { startBenchServer } from './postgres.ts'
import { sizeLabel, type BenchRow } from './table.ts'

const SIZES = (process.env.BENCH_POSITIONS ?? '10000,100000,1000000').split(',').map(Number)
/** 1,000,000 positions settled in under 5 minutes on a 2-core machine. */
const TARGET_SECONDS_PER_MILLION = 300

export async function benchSettlement(): Promise<BenchRow[]> {
  const server = await startBenchServer()
  const rows: BenchRow[] = []
  try {
    for (const size of SIZES) {
      const name = `hope_bench_settle_${size}`
      const database = openDatabase(await server.createDatabase(name), 4)
      await migrate(database.pool)
      await seedDemo(database.pool)
      const t0 = performance.now()
      await generateEconomy(database.pool, {
        users: Math.max(100, size / 10),
        positions: size,
        prefix: `b${size}`,
      })
      await database.pool.query('VACUUM ANALYZE')
      const generated = (performance.now() - t0) / 1000
      const ledger = createLedgerService(database.pool)
      const settings = createSettingsService(database.pool)
      const sale = createSaleService({ pool: database.pool, ledger, settings })
      const settlement = createSettlementService({ pool: database.pool, ledger, settings, sale })
      const t1 = performance.now()
      const run = await settlement.settle('2030-01-01')
      const seconds = (performance.now() - t1) / 1000
      const report = await verifyLedger(database.pool)
      await database.close()
      const label = `${sizeLabel(size)} positions`
      rows.push(
        {
          group: 'settlement',
          name: `generate (${sizeLabel(Math.max(100, size / 10))} members)`,
          size: label,
          value: generated,
          unit: 's',
        },
        {
          group: 'settlement',
          name: 'settle one day',
          size: label,
          value: seconds,
          unit: 's',
          ...(size >= 1_000_000
            ? {
                budget: `< ${(TARGET_SECONDS_PER_MILLION * size) / 1_000_000} s`,
                ok: seconds < (TARGET_SECONDS_PER_MILLION * size) / 1_000_000,
              }
            : {}),
        },
        {
          group: 'settlement',
          name: 'positions settled',
          size: label,
          value: run.positions,
          unit: 'positions',
          budget: `= ${size}`,
          ok: run.positions === size,
        },
        {
          group: 'settlement',
          name: 'ledger:verify problems',
          size: label,
          value: report.problems.length,
          unit: 'problems',
          budget: '0',
          ok: report.problems.length === 0,
        },
      )
      if (report.problems.length) console.info(`ledger:verify: ${report.problems[0]}`)
      console.info(
        `  settled ${size} positions in ${seconds.toFixed(1)} s (${(size / seconds).toFixed(0)}/s), generated in ${generated.toFixed(1)} s`,
      )
    }
  } finally {
    await server.stop()
  }
  return rows
}
