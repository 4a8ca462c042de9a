import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Tx } from '../../db/pool.ts'
import { sessions, users } from '../../db/schema/index.ts'

export type UserRow = typeof users.$inferSelect

export async function findUserByName(tx: Tx, userName: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.userName, userName.toLowerCase()))
  return row
}

export async function findUserByReferralCode(tx: Tx, code: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.referralCode, code))
  return row
}

export async function insertUser(
  tx: Tx,
  values: Pick<UserRow, 'userName' | 'nickName' | 'referralCode' | 'inviterId' | 'location'>,
): Promise<UserRow | undefined> {
  const [row] = await tx.insert(users).values(values).onConflictDoNothing().returning()
  return row
}

/**
 * Opens a session; a live session opened by the same signed pair is revoked first. Call inside
 * a transaction: logins with one pair are serialised on a lock keyed by the pair.
 */
export async function openSession(
  tx: Tx,
  values: { userId: number; tokenHash: Buffer; pairHash: Buffer; ip: string; expiresAt: Date },
): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${values.pairHash.readBigInt64BE(0)})`)
  await tx
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.pairHash, values.pairHash), isNull(sessions.revokedAt)))
  await tx.insert(sessions).values(values)
}

/**
 * The session lookup every signed-in request makes, as a named prepared statement: each
 * connection parses and plans it once instead of on every request.
 */
function liveSessionStatement(tx: Tx) {
  return tx
    .select({ sessionId: sessions.id, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('hash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .prepare('find_live_session')
}
const liveSessionStatements = new WeakMap<Tx, ReturnType<typeof liveSessionStatement>>()

export async function findLiveSession(
  tx: Tx,
  hash: Buffer,
): Promise<{ sessionId: number; user: UserRow } | undefined> {
  let statement = liveSessionStatements.get(tx)
  if (!statement) {
    statement = liveSessionStatement(tx)
    liveSessionStatements.set(tx, statement)
  }
  const [row] = await statement.execute({ hash })
  return row
}

export async function revokeSession(tx: Tx, sessionId: number): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
}
