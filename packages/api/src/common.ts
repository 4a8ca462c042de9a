import { z } from 'zod'

/** An EVM address; compared and stored lower-cased. */
export const Address = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'address')
  .transform((a) => a.toLowerCase() as `0x${string}`)

/** A 65-byte ECDSA signature as hex (EIP-1271 contract signatures may be longer). */
export const Signature = z
  .string()
  .trim()
  .regex(/^0x[0-9a-fA-F]{130,2000}$/, 'signature')
  .transform((s) => s as `0x${string}`)

/** Query-string integer within bounds. */
export const intParam = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, 'integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))

/** Paged list request (DESIGN §2): pageNum from 1, pageSize at most 100. */
export const PageParams = z.object({
  pageNum: intParam(1, 1_000_000).default(1),
  pageSize: intParam(1, 100).default(10),
})

export interface Page<T> {
  list: T[]
  total: number
  pageNum: number
  pageSize: number
}
