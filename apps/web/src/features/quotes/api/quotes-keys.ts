import type { PriceRange, PriceSymbol } from '@hope/api'

/** One key factory for the quotes queries (`main/priceHistory`). */
export const quotesKeys = {
  all: ['quotes'] as const,
  history: (symbol: PriceSymbol, range: PriceRange) =>
    [...quotesKeys.all, 'history', symbol, range] as const,
}
