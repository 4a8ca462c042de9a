import { randomBytes } from 'node:crypto'
import {
  ACCOUNT_CURRENCY,
  CURRENCY_DECIMALS,
  formatAmount,
  parseAmount,
  trimDecimal,
  type BalanceAdjustResult,
  type OperatorRole,
  type OperatorSession,
} from '@hope/api'
import type pg from 'pg'
import { inTransaction } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import { assertAmountWithinBound } from '../../lib/amount-bound.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import type { LedgerService } from '../ledger/ledger.service.ts'
import { findUserByName } from '../user/user.service.ts'
import { recordAudit } from '../audit/audit.service.ts'
import { TOKEN_PATTERN, tokenHash } from '../user/user.rules.ts'
import * as repo from './operator.repository.ts'
import { hashPassword, verifyPassword } from './operator.rules.ts'
import { openSecret, sealSecret } from '../../lib/seal.ts'
import { generateTotpSecret, otpauthUri, verifyTotp } from '../../lib/totp.ts'

const SESSION_TTL_MS = 12 * 3_600_000
// Compared against when the username is unknown, so both answers take as long.
const DUMMY_HASH =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
const DUMMY_SECRET = Buffer.alloc(20)

export type Operator = repo.OperatorRow

export interface NewOperator {
  id: number
  username: string
  role: OperatorRole
  /** The authenticator secret, for the enrolment link; shown once, stored sealed. */
  totpSecret: Buffer
  otpauthUri: string
}

export function createOperatorService(deps: {
  pool: pg.Pool
  ledger: LedgerService
  settings: SettingsService
  /** The key sealing authenticator secrets (operator.secret.ts). */
  secretKey: () => Buffer
  now?: () => number
}) {
  const { pool, ledger, settings, secretKey } = deps
  const now = deps.now ?? Date.now

  /** Backend recharge (credit, log 5) or debit (log 6), audited with the balance before and after. */
  async function adjust(
    operator: Operator,
    direction: 'credit' | 'debit',
    params: {
      userName: string
      account: keyof typeof ACCOUNT_CURRENCY
      amount: string
      reason: string
      idempotencyKey: string
    },
  ): Promise<BalanceAdjustResult> {
    const currency = ACCOUNT_CURRENCY[params.account]
    const units = parseAmount(params.amount, CURRENCY_DECIMALS[currency])
    if (units === null || units <= 0n) throw new AppError('amount_invalid')
    assertAmountWithinBound(await settings.get(), currency, units)
    const amount = formatAmount(units, CURRENCY_DECIMALS[currency])
    const user = await findUserByName(pool, params.userName)
    if (!user) throw new AppError('not_registered')
    const accountId = (await ledger.userAccountIds(user.id))[params.account]
    const treasury = await ledger.platformAccount('treasury', currency)
    const [debit, credit, logType] =
      direction === 'credit' ? [treasury, accountId, 5] : [accountId, treasury, 6]
    const key = `operator:${operator.id}:${params.idempotencyKey}`

    return inTransaction(pool, async (client) => {
      const outcome = await ledger.apply(
        key,
        { direction, user: user.id, account: params.account, amount, reason: params.reason },
        [{ kind: 'posted', debit, credit, amount, logType, ref: `operator:${operator.id}` }],
        client,
      )
      const transferId = outcome.transfers[0]!
      const after = trimDecimal(await repo.entryBalanceAfter(client, transferId, accountId))
      const after18 = parseAmount(after, 18)!
      const amount18 = units * 10n ** BigInt(18 - CURRENCY_DECIMALS[currency])
      const before = formatAmount(
        direction === 'credit' ? after18 - amount18 : after18 + amount18,
        18,
      )
      if (!outcome.replayed) {
        await recordAudit(client, {
          operatorId: operator.id,
          action: direction === 'credit' ? 'backend_recharge' : 'backend_debit',
          targetUserId: user.id,
          accountId,
          transferId,
          amount,
          reason: params.reason,
          before: { balance: before },
          after: { balance: after },
        })
      }
      return {
        transferId: String(transferId),
        account: params.account,
        amount,
        before,
        after,
        replayed: outcome.replayed,
      }
    })
  }

  return {
    /** A new operator with a new authenticator secret; throws when the username is taken. */
    async create(username: string, password: string, role: OperatorRole): Promise<NewOperator> {
      const secret = generateTotpSecret()
      const id = await repo.insertOperator(
        pool,
        username,
        await hashPassword(password),
        role,
        sealSecret(secretKey(), username, secret),
      )
      if (id === null) throw new Error(`an operator named ${username} already exists`)
      return { id, username, role, totpSecret: secret, otpauthUri: otpauthUri(username, secret) }
    },

    /**
     * Password and the authenticator's code; a code is accepted once (its time step must be
     * later than the last one used). Every failure answers the same, after the same work.
     */
    async login(
      params: { username: string; password: string; code: string },
      ip: string,
    ): Promise<OperatorSession> {
      const operator = await repo.findOperator(pool, params.username)
      const passwordOk = await verifyPassword(params.password, operator?.passwordHash ?? DUMMY_HASH)
      const secret = operator?.totpSecret
        ? openSecret(secretKey(), operator.username, operator.totpSecret)
        : null
      const step = verifyTotp(secret ?? DUMMY_SECRET, params.code, now())
      if (!operator || !passwordOk || operator.disabled || !secret || step === null)
        throw new AppError('operator_login_failed')
      if (!(await repo.claimTotpStep(pool, operator.id, step)))
        throw new AppError('operator_login_failed')
      const token = randomBytes(32).toString('base64url')
      await repo.openOperatorSession(pool, operator.id, tokenHash(token), ip, SESSION_TTL_MS)
      return { token, username: operator.username, role: operator.role }
    },

    /** Ends the session of `token`; it is refused from then on. */
    async logout(token: unknown): Promise<null> {
      if (typeof token === 'string' && TOKEN_PATTERN.test(token))
        await repo.revokeOperatorSession(pool, tokenHash(token))
      return null
    },

    async authenticate(
      token: unknown,
      roles: readonly OperatorRole[] | undefined,
    ): Promise<Operator> {
      if (typeof token !== 'string' || token === '') throw new AppError('not_logged_in')
      if (!TOKEN_PATTERN.test(token)) throw new AppError('session_expired')
      const operator = await repo.findLiveOperatorSession(pool, tokenHash(token))
      if (!operator) throw new AppError('session_expired')
      if (roles && !roles.includes(operator.role)) throw new AppError('forbidden')
      return operator
    },

    credit: (operator: Operator, params: Parameters<typeof adjust>[2]) =>
      adjust(operator, 'credit', params),
    debit: (operator: Operator, params: Parameters<typeof adjust>[2]) =>
      adjust(operator, 'debit', params),
  }
}

export type OperatorService = ReturnType<typeof createOperatorService>
