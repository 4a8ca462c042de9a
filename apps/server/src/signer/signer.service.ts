import { trimDecimal } from '@hope/api'
import type pg from 'pg'
import {
  keccak256,
  parseTransaction,
  parseUnits,
  serializeTransaction,
  type Address,
  type Hex,
  type TransactionSerializableEIP1559,
  type TransactionSerializableLegacy,
} from 'viem'
import { inTransaction } from '../db/transaction.ts'
import { createSettingsService } from '../modules/settings/settings.service.ts'
import type { SignPort } from './sign-port.ts'
import {
  decodePublish,
  payoutDecision,
  porDecision,
  type PayoutRefusal,
  type PorRefusal,
  txFees,
  type SignedBefore,
} from './signer.rules.ts'
import { DEFAULT_SIGNER_CAPS, type SignerCaps } from '../config.ts'
import { LOCK_KEYS } from '../db/lock-keys.ts'

/**
 * A transaction as the senders ask it signed: EIP-1559, or legacy (type 0, its gas price) on a
 * chain without EIP-1559. A legacy one is signed for its chain id (EIP-155), never replayable
 * on another chain.
 */
export type UnsignedTx = (TransactionSerializableEIP1559 | TransactionSerializableLegacy) & {
  chainId: number
  to: Address
  data: Hex
}

/**
 * The fee columns of the signer's logs: an EIP-1559 transaction's fee cap and tip, a legacy
 * one's gas price in both (what `txFees` reads, and a replacement is compared with).
 */
function feeColumns(tx: UnsignedTx): [string | null, string | null] {
  const fees = txFees(tx)
  return fees ? [String(fees.fee), String(fees.tip)] : [null, null]
}

/** The signer said no: nothing was signed. */
export class SignerRefusal extends Error {
  readonly reason: PayoutRefusal | PorRefusal | 'no_key'
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

const SIGNER_LOCK = LOCK_KEYS.signerPayouts
const SIGNER_POR_LOCK = LOCK_KEYS.signerPor

/** A row of the signer's log as the rules read it. */
function signedBefore(row: {
  nonce: string | null
  maxFee: string | null
  maxTip: string | null
  raw: Hex | null
}): SignedBefore {
  const raw = row.raw ?? '0x'
  const tx = row.raw ? parseTransaction(row.raw) : null
  return {
    nonce: row.nonce === null ? null : Number(row.nonce),
    maxFeePerGas: BigInt(row.maxFee ?? 0),
    maxPriorityFeePerGas: BigInt(row.maxTip ?? 0),
    raw,
    to: tx?.to ?? '',
    data: tx?.data ?? '',
    gas: tx?.gas ?? 0n,
  }
}

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
  /** The vault and the registry as first read: what this signer pays through and publishes to. */
  let vault: string | null = null
  let registry: string | null = null

  return {
    address: (hot?.address ?? '0x0000000000000000000000000000000000000000') as Address,
    porPublisher: publisher?.address ?? null,

    async signPayout(withdrawalId, tx) {
      if (!hot) throw new SignerRefusal('no_key')
      const s = await settings.get()
      // The vault first read is the one paid through: a vault changed later in the settings
      // (which web workers can write) is not followed until the signer is restarted.
      vault ??= s.payoutVaultAddress || null
      if (vault && s.payoutVaultAddress.toLowerCase() !== vault.toLowerCase()) {
        log('payout refused', {
          withdrawalId,
          refusal: 'wrong_vault',
          vault,
          settings: s.payoutVaultAddress,
        })
        throw new SignerRefusal('wrong_vault', 'the vault in the settings changed')
      }
      const decimals = s.chainTokenDecimals
      const units = (v: string) => parseUnits(trimDecimal(v), decimals)
      return inTransaction(pool, async (q) => {
        // One signature at a time, so two callers cannot both slip under a cap.
        await q.query('SELECT pg_advisory_xact_lock($1)', [SIGNER_LOCK])
        const w = (
          await q.query<{
            status: number
            chainId: number
            toAddress: string
            amount: string
            payoutId: string
          }>(
            `SELECT status, chain_id::int AS "chainId", to_address AS "toAddress", amount::text,
                    payout_id AS "payoutId"
             FROM withdrawals WHERE id = $1`,
            [withdrawalId],
          )
        ).rows[0]
        const before = (
          await q.query<{
            nonce: string | null
            maxFee: string | null
            maxTip: string | null
            raw: Hex | null
          }>(
            `SELECT nonce::text, max_fee_per_gas::text AS "maxFee",
                    max_priority_fee_per_gas::text AS "maxTip", raw_tx AS raw
             FROM signer_log WHERE withdrawal_id = $1 AND raw_tx IS NOT NULL ORDER BY id DESC LIMIT 1`,
            [withdrawalId],
          )
        ).rows[0]
        const sums = (
          await q.query<{ hour: string; day: string }>(
            `SELECT coalesce(sum(amount) FILTER (WHERE signed_at > now() - interval '1 hour'), 0)::text AS hour,
                    coalesce(sum(amount), 0)::text AS day
             FROM signer_log WHERE signed_at > now() - interval '1 day'`,
          )
        ).rows[0]!
        const decision = payoutDecision({
          withdrawal: w ? { ...w, units: units(w.amount) } : null,
          tx,
          vault: vault ?? '',
          before: before ? signedBefore(before) : null,
          signedHour: units(sums.hour),
          signedDay: units(sums.day),
          caps: { hour: units(caps.hourUsdt), day: units(caps.dayUsdt) },
          limits: {
            gas: BigInt(s.payoutGasLimit),
            maxFeePerGas: parseUnits(trimDecimal(s.payoutMaxFeeGwei), 9),
          },
        })
        if (decision.act === 'refuse') {
          log('payout refused', { withdrawalId, refusal: decision.reason })
          throw new SignerRefusal(decision.reason, `withdrawal ${withdrawalId}`)
        }
        if (decision.act === 'repeat') {
          log('payout asked again: the same transaction', {
            withdrawalId,
            txHash: keccak256(decision.raw),
          })
          return decision.raw
        }
        const raw = await signWith(hot, tx)
        const hash = keccak256(raw)
        await q.query(
          `INSERT INTO signer_log (withdrawal_id, amount, tx_hash, nonce, payout_id, raw_tx,
                                   max_fee_per_gas, max_priority_fee_per_gas)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [withdrawalId, w!.amount, hash, tx.nonce ?? null, w!.payoutId, raw, ...feeColumns(tx)],
        )
        log(decision.replaces ? 'payout replacement signed' : 'payout signed', {
          withdrawalId,
          txHash: hash,
          to: w!.toAddress,
          amount: w!.amount,
          payoutId: w!.payoutId,
        })
        return raw
      })
    },

    ...(publisher
      ? {
          async signPor(tx: UnsignedTx) {
            const s = await settings.get()
            registry ??= s.porRegistryAddress || null
            return inTransaction(pool, async (q) => {
              await q.query('SELECT pg_advisory_xact_lock($1)', [SIGNER_POR_LOCK])
              const last = (
                await q.query<{
                  id: string
                  blockNumber: string
                  nonce: string | null
                  maxFee: string | null
                  maxTip: string | null
                  raw: Hex
                }>(
                  `SELECT snapshot_id::text AS id, block_number::text AS "blockNumber", nonce::text,
                          max_fee_per_gas::text AS "maxFee",
                          max_priority_fee_per_gas::text AS "maxTip", raw_tx AS raw
                   FROM signer_por_log ORDER BY block_number DESC, id DESC LIMIT 1`,
                )
              ).rows[0]
              const decision = porDecision(
                tx,
                registry ?? '',
                last
                  ? {
                      ...signedBefore(last),
                      id: BigInt(last.id),
                      blockNumber: BigInt(last.blockNumber),
                    }
                  : null,
              )
              if (decision.act === 'refuse') {
                log('proof-of-liabilities publish refused', { refusal: decision.reason })
                throw new SignerRefusal(decision.reason)
              }
              if (decision.act === 'repeat') return decision.raw
              const call = decodePublish(tx.data)!
              const raw = await signWith(publisher, tx)
              const hash = keccak256(raw)
              await q.query(
                `INSERT INTO signer_por_log (snapshot_id, block_number, nonce, tx_hash, raw_tx,
                                             max_fee_per_gas, max_priority_fee_per_gas)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)`,
                [
                  String(call.id),
                  String(call.blockNumber),
                  tx.nonce ?? null,
                  hash,
                  raw,
                  ...feeColumns(tx),
                ],
              )
              log('proof-of-liabilities publish signed', {
                txHash: hash,
                snapshotId: String(call.id),
                blockNumber: String(call.blockNumber),
              })
              return raw
            })
          },
        }
      : {}),
  }
}
