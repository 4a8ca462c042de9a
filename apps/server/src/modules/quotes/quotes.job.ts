import type { JobDefinition } from '../../jobs/job.ts'
import type { QuotesService } from './quotes.service.ts'

/** Prices: the ETH feed's poll (when configured), each price change and an hourly sample. */
export function createQuotesJob(quotes: QuotesService): JobDefinition {
  return { name: 'price sampler', intervalMs: 60_000, tick: () => quotes.tick() }
}
