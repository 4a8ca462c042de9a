/** One comparison of what the chain holds with what the books say. */
export interface ReconcileLine {
  name: string
  chain: bigint
  books: bigint
}

/** The lines that differ, each as a sentence naming both figures (amounts in token units). */
export function differences(lines: ReconcileLine[], format: (units: bigint) => string): string[] {
  return lines
    .filter((l) => l.chain !== l.books)
    .map(
      (l) =>
        `${l.name}: chain ${format(l.chain)} but books ${format(l.books)} (difference ${format(l.chain - l.books)})`,
    )
}
