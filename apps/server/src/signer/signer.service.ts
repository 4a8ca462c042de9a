import { trimDecimal } from '@hope/api'
import type pg from 'pg'
import {
  keccak256,
  parseUnits,
  serializeTransaction,
  type Address,
  type Hex,
  type TransactionSerializableEIP1559,
} from 'viem'
import { inTransaction } from '../db/transaction.ts'
import { createSettingsService } from '../modules/settings/settings.service.ts'
import type { SignPort } from './sign-port.ts'
import { payoutRefusal, porTransactionAllowed, type PayoutRefusal } from './signer.rules.ts'

/** A transaction as the senders ask it signed (EIP-1559). */
export type UnsignedTx = TransactionSerializableEIP1559 & {
  chainId: number
  to: Address
  data: Hex
}

/** The signer said no: nothing was signed. */
export class SignerRefusal extends Error {
  readonly reason: PayoutRefusal | 'not_publish' | 'no_key'
  constructor(reason: SignerRefusal['reason'], detail = '') {
    super(`the signer refused: ${reason}${detail ? ` (${detail})` : ''}`)
    this.name = 'SignerRefusal'
    this.reason = reason
  }
}

/** What pays approved withdrawals: the signer, in this process or behind its local channel. */
export interface PayoutSigner {
  readonly address: Address
  signPayout(withdrawalId: number, tx: UnsignedTx): Promise<Hex>
}

/** What signs the proof-of-liabilities registry's publish calls. */
export interface PorSigner {
  readonly address: Address
  signPor(tx: UnsignedTx): Promise<Hex>
}

export interface SignerCaps {
  /** USDT (decimal strings) of distinct withdrawals the signer pays per hour and per day. */
  hourUsdt: string
  dayUsdt: string
}

export const DEFAULT_SIGNER_CAPS: SignerCaps = { hourUsdt: '50000', dayUsdt: '200000' }

/** SIGNER_HOURLY_CAP_USDT and SIGNER_DAILY_CAP_USDT, else the defaults. */
export function signerCapsFrom(env: NodeJS.ProcessEnv): SignerCaps {
  const read = (v: string | undefined, fallback: string) => {
    if (!v) return fallback
    if (!/^\d{1,15}(\.\d{1,6})?$/.test(v)) throw new Error(`a signer cap must be USDT, got "${v}"`)
    return v
  }
  return {
    hourUsdt: read(env.SIGNER_HOURLY_CAP_USDT, DEFAULT_SIGNER_CAPS.hourUsdt),
    dayUsdt: read(env.SIGNER_DAILY_CAP_USDT, DEFAULT_SIGNER_CAPS.dayUsdt),
  }
}

const SIGNER_LOCK = 7_001_015

async function signWith(port: SignPort, tx: UnsignedTx): Promise<Hex> {
  const signature = await port.sign(keccak256(serializeTransaction(tx)))
  return serializeTransaction(tx, signature)
}

/**
 * The signer: it holds the hot wallet's key (and the registry publisher's) and signs only what
 * PostgreSQL, read by itself, says may be paid: an approved, unpaid withdrawal to its recorded
 * address and amount, inside its own hourly and daily caps (its configuration, not the
 * operators' settings), each signature logged in `signer_log`. A caller holding the channel's
 * token can ask, never decide.
 */
export function createSigner(deps: {
  pool: pg.Pool
  hotWallet: SignPort | null
  porPublisher?: SignPort | null
  caps?: SignerCaps
  log?: (msg: string, extra: object) => void
}): PayoutSigner & Partial<PorSigner> & { porPublisher: Address | null } {
  const { pool } = deps
  const settings = createSettingsService(pool)
  const caps = deps.caps ?? DEFAULT_SIGNER_CAPS
  const log = deps.log ?? (() => {})
  const hot = deps.hotWallet
  const publisher = deps.porPublisher ?? null

  return {
    address: (hot?.address ?? '0x0000000000000000000000000000000000000000') as Address,
    porPublisher: publisher?.address ?? null,

    async signPayout(withdrawalId, tx) {
      if (!hot) throw new SignerRefusal('no_key')
      const s = await settings.get()
      const decimals = s.chainTokenDecimals
      const units = (v: string) => parseUnits(trimDecimal(v), decimals)
      return inTransaction(pool, async (q) => {
        // One signature at a time, so two callers cannot both slip under a cap.
        await q.query('SELECT pg_advisory_xact_lock($1)', [SIGNER_LOCK])
        const w = (
          await q.query<{ status: number; chainId: number; toAddress: string; amount: string }>(
            `SELECT status, chain_id::int AS "chainId", to_address AS "toAddress", amount::text
             FROM withdrawals WHERE id = $1`,
            [withdrawalId],
          )
        ).rows[0]
        const sums = (
          await q.query<{ hour: string; day: string }>(
            `SELECT coalesce(sum(amount) FILTER (WHERE first_at > now() - interval '1 hour'), 0)::text AS hour,
                    coalesce(sum(amount), 0)::text AS day
             FROM (SELECT withdrawal_id, min(amount) AS amount, min(signed_at) AS first_at
                   FROM signer_log
                   WHERE signed_at > now() - interval '1 day' AND withdrawal_id <> $1
                   GROUP BY withdrawal_id) s`,
            [withdrawalId],
          )
        ).rows[0]!
        const refusal = payoutRefusal({
          withdrawal: w
            ? {
                status: w.status,
                chainId: w.chainId,
                toAddress: w.toAddress,
                units: units(w.amount),
              }
            : null,
          tx,
          token: s.chainTokenAddress,
          signedHour: units(sums.hour),
          signedDay: units(sums.day),
          caps: { hour: units(caps.hourUsdt), day: units(caps.dayUsdt) },
        })
        if (refusal) {
          log('payout refused', { withdrawalId, refusal })
          throw new SignerRefusal(refusal, `withdrawal ${withdrawalId}`)
        }
        const raw = await signWith(hot, tx)
        const hash = keccak256(raw)
        await q.query(
          `INSERT INTO signer_log (withdrawal_id, amount, tx_hash, nonce) VALUES ($1, $2, $3, $4)`,
          [withdrawalId, w!.amount, hash, tx.nonce ?? null],
        )
        log('payout signed', { withdrawalId, txHash: hash, to: w!.toAddress, amount: w!.amount })
        return raw
      })
    },

    ...(publisher
      ? {
          async signPor(tx: UnsignedTx) {
            const s = await settings.get()
            if (!porTransactionAllowed(tx, s.porRegistryAddress))
              throw new SignerRefusal('not_publish')
            const raw = await signWith(publisher, tx)
            log('proof-of-liabilities publish signed', { txHash: keccak256(raw) })
            return raw
          },
        }
      : {}),
  }
}
