import {
  trimDecimal,
  type EthPriceChange,
  type PriceHistory,
  type PriceRange,
  type PriceSymbol,
} from '@hope/api'
import type pg from 'pg'
import { lockForTransaction, withAdvisoryLock } from '../../db/advisory-lock.ts'
import { inTransaction } from '../../db/transaction.ts'
import { recordAudit } from '../audit/audit.service.ts'
import type { PriceFeed } from './quotes.feed.ts'
import * as repo from './quotes.repository.ts'
import {
  BUCKET_SECONDS,
  DAY_MS,
  RANGE_MS,
  buildSeries,
  changePercent,
  openPrice,
  sampleDue,
} from './quotes.rules.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

/** The session's ETH price before any is known (spec §3), until an operator or a feed sets one. */
export const UNSET_ETH_PRICE = '1'

const SAMPLER_LOCK: [number, number] = [LOCK_KEYS.quotes, 1]
/** Serialises ETH price writes, so each change knows the price it replaced. */
const ETH_WRITE_LOCK: [number, number] = [LOCK_KEYS.quotes, 2]

/**
 * ETH and HOPE prices with their history (DESIGN §6): the ETH price is the newest stored one,
 * set by operators or, when a feed is configured, polled from it; the HOPE price is the current
 * sale stage price. The sampler records each change and an hourly sample of both.
 */
export function createQuotesService(deps: {
  pool: pg.Pool
  /** The real-time HOPE price in USDT (what `main/getETLDPrice` answers). */
  hopePrice: () => Promise<string>
  feed?: PriceFeed | undefined
  now?: () => number
  log?: (msg: string, extra: Record<string, unknown>) => void
}) {
  const { pool, hopePrice, feed } = deps
  const now = deps.now ?? Date.now

  async function ethPrice(q: Pick<pg.Pool, 'query'> = pool): Promise<string> {
    const last = await repo.priceAtOrBefore(q, 'ETH', now())
    return last ? trimDecimal(last.price) : UNSET_ETH_PRICE
  }

  const currentPrice = (symbol: PriceSymbol): Promise<string> =>
    symbol === 'ETH' ? ethPrice() : hopePrice()

  /** Records a new price of `symbol` unless it is the last one stored, or the hourly sample. */
  async function record(
    q: pg.PoolClient,
    symbol: PriceSymbol,
    price: string,
    changeSource: repo.PriceSource,
    at: number,
  ): Promise<number> {
    const last = await repo.priceAtOrBefore(q, symbol, at)
    const due = sampleDue(last, price, at)
    if (!due) return 0
    await repo.insertPrice(q, {
      symbol,
      price,
      source: due === 'change' ? changeSource : 'sample',
      at,
    })
    return 1
  }

  return {
    ethPrice: () => ethPrice(),

    /** Current price, the change over 24 hours and the chart of `range`, up to now. */
    async history(symbol: PriceSymbol, range: PriceRange): Promise<PriceHistory> {
      const at = now()
      const from = at - RANGE_MS[range]
      const dayStart = at - DAY_MS
      const [current, anchor, rows, beforeDay, firstInDay] = await Promise.all([
        currentPrice(symbol),
        repo.priceAtOrBefore(pool, symbol, from),
        repo.bucketedPrices(pool, symbol, from, at, BUCKET_SECONDS[range]),
        repo.priceAtOrBefore(pool, symbol, dayStart),
        repo.firstPriceWithin(pool, symbol, dayStart, at),
      ])
      const open = openPrice(beforeDay, firstInDay)
      return {
        symbol,
        range,
        price: current,
        open24h: open === null ? null : trimDecimal(open),
        change24h: open === null ? null : changePercent(open, current),
        points: buildSeries({ anchor, rows, from, now: at, current }),
      }
    },

    /** An operator sets the ETH price: a new point of the history and an audit row. */
    async setEthPrice(
      operatorId: number,
      params: { price: string; reason?: string | undefined },
    ): Promise<EthPriceChange> {
      const price = trimDecimal(params.price)
      const at = now()
      return inTransaction(pool, async (q) => {
        await lockForTransaction(q, ETH_WRITE_LOCK)
        const previous = await repo.priceAtOrBefore(q, 'ETH', at)
        await repo.insertPrice(q, { symbol: 'ETH', price, source: 'operator', operatorId, at })
        const before = previous ? trimDecimal(previous.price) : null
        await recordAudit(q, {
          operatorId,
          action: 'set_eth_price',
          targetUserId: null,
          reason: params.reason ?? 'ETH price',
          before: { price: before },
          after: { price },
        })
        return { price, previous: before, at: new Date(at).toISOString() }
      })
    },

    /**
     * One run of the price sampler: polls the feed when one is configured (a failure is
     * logged and the last price kept), then records each symbol's change or hourly sample.
     * Several processes may call it; one runs at a time, so the feed is polled once.
     */
    async tick(): Promise<{ recorded: number }> {
      const result = await withAdvisoryLock(pool, SAMPLER_LOCK, async (lockConn) => {
        let fetched: string | null = null
        if (feed) {
          try {
            fetched = await feed.fetchPrice()
          } catch (err) {
            deps.log?.('ETH price feed failed; keeping the last price', { err, feed: feed.name })
          }
        }
        const hope = await hopePrice()
        const at = now()
        let recorded = await record(lockConn, 'HOPE', hope, 'stage', at)
        recorded += await inTransaction(pool, async (q) => {
          await lockForTransaction(q, ETH_WRITE_LOCK)
          if (fetched !== null) return record(q, 'ETH', fetched, 'feed', at)
          const last = await repo.priceAtOrBefore(q, 'ETH', at)
          return last ? record(q, 'ETH', last.price, 'feed', at) : 0
        })
        return recorded
      })
      return { recorded: result ?? 0 }
    },
  }
}

export type QuotesService = ReturnType<typeof createQuotesService>

/** Demo content: an ETH price to start the history from, when none is stored yet. */
export async function seedDemoPrices(pool: pg.Pool): Promise<void> {
  await repo.insertSeedPrice(pool, 'ETH', '3000')
}
