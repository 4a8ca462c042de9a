import { defineModule, type ModuleClock } from '../../plugins/module.ts'
import { createHttpPriceFeed } from './quotes.feed.ts'
import { quotesRoutes } from './quotes.routes.ts'
import { createQuotesService } from './quotes.service.ts'

/** The quotes: HOPE's price from the accounts (registered before), ETH's from the feed if set. */
export const quotesModule = defineModule('quotes', async (app, opts: ModuleClock) => {
  const { accounts } = app.services
  const { ethPriceFeed } = app.config
  app.services.quotes = createQuotesService({
    pool: app.db.pool,
    hopePrice: () => accounts.currentHopePrice(),
    feed: ethPriceFeed ? createHttpPriceFeed(ethPriceFeed) : undefined,
    log: (msg, extra) => app.log.warn(extra, msg),
    ...(opts.now ? { now: opts.now } : {}),
  })
  await app.register(quotesRoutes)
})
