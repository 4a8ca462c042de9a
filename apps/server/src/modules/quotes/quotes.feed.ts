import { readFeedPrice } from './quotes.rules.ts'

/**
 * Where the ETH price comes from when it is not set by operators: one HTTP call per poll,
 * answering a validated decimal string or throwing.
 */
export interface PriceFeed {
  readonly name: string
  fetchPrice(): Promise<string>
}

/**
 * A JSON endpoint (ETH_PRICE_URL) and the dotted path of the USD price in its answer
 * (ETH_PRICE_PATH), fetched with a timeout; a non-2xx answer, a body without a valid price or a
 * timeout throws, and the caller keeps the last price.
 * @example createHttpPriceFeed({ url: 'https://prices.example/eth', path: 'ethereum.usd', timeoutMs: 5000 })
 */
export function createHttpPriceFeed(opts: {
  url: string
  path: string
  timeoutMs: number
  fetch?: typeof fetch
}): PriceFeed {
  const doFetch = opts.fetch ?? fetch
  const host = new URL(opts.url).host
  return {
    name: `http ${host}`,
    async fetchPrice() {
      const res = await doFetch(opts.url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(opts.timeoutMs),
      })
      if (!res.ok) throw new Error(`ETH price feed answered HTTP ${res.status}`)
      const body: unknown = await res.json()
      const price = readFeedPrice(body, opts.path)
      if (price === null) throw new Error(`ETH price feed has no valid price at "${opts.path}"`)
      return price
    },
  }
}
