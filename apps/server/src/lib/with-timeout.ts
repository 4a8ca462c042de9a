/**
 * `work`, or a rejection `no answer within <ms> ms` once `ms` have passed; the timer never
 * outlives the race.
 * @example await withTimeout(pool.query('SELECT 1'), 2_000)
 */
export async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}
