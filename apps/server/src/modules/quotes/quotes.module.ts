import { defineModule } from '../define-module.ts'
import { createHttpPriceFeed } from './quotes.feed.ts'
import { createQuotesJob } from './quotes.job.ts'
import { quotesRoutes } from './quotes.routes.ts'
import { createQuotesService } from './quotes.service.ts'

/** The quotes: HOPE's price from the accounts (registered before), ETH's from the feed if set. */
export const quotesModule = defineModule({
  name: 'quotes',
  services: (app, opts) => {
    const { accounts } = app.services
    const { ethPriceFeed } = app.config
    return {
      quotes: createQuotesService({
        pool: app.db.pool,
        hopePrice: () => accounts.currentHopePrice(),
        feed: ethPriceFeed ? createHttpPriceFeed(ethPriceFeed) : undefined,
        log: (msg, extra) => app.log.warn(extra, msg),
        ...(opts.now ? { now: opts.now } : {}),
      }),
    }
  },
  routes: quotesRoutes,
  jobs: ({ app }) => [createQuotesJob(app.services.quotes)],
})
