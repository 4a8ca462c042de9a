import type { Queryable } from '../../db/transaction.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

export interface UserRow {
  id: number
  userName: string
  nickName: string
  image: string
  referralCode: string
  level: number
  gamePoints: string
  inviterId: number | null
  location: number
  isRobot: boolean
  createdAt: Date
}

interface UserRecord {
  id: string
  user_name: string
  nick_name: string
  image: string
  referral_code: string
  level: number
  game_points: string
  inviter_id: string | null
  location: number
  is_robot: boolean
  created_at: Date
}

const USER_COLUMNS = `u.id, u.user_name, u.nick_name, u.image, u.referral_code, u.level,
  u.game_points, u.inviter_id, u.location, u.is_robot, u.created_at`

// BIGINT arrives as a string (see pool.ts); user ids stay far below 2^53.
const toUser = (r: UserRecord): UserRow => ({
  id: Number(r.id),
  userName: r.user_name,
  nickName: r.nick_name,
  image: r.image,
  referralCode: r.referral_code,
  level: r.level,
  gamePoints: r.game_points,
  inviterId: r.inviter_id === null ? null : Number(r.inviter_id),
  location: r.location,
  isRobot: r.is_robot,
  createdAt: r.created_at,
})

export async function findUserByName(q: Queryable, userName: string): Promise<UserRow | undefined> {
  const res = await q.query<UserRecord>(
    `SELECT ${USER_COLUMNS} FROM users u WHERE u.user_name = $1`,
    [userName.toLowerCase()],
  )
  return res.rows[0] && toUser(res.rows[0])
}

export async function findUserByReferralCode(
  q: Queryable,
  code: string,
): Promise<UserRow | undefined> {
  const res = await q.query<UserRecord>(
    `SELECT ${USER_COLUMNS} FROM users u WHERE u.referral_code = $1`,
    [code],
  )
  return res.rows[0] && toUser(res.rows[0])
}

/** Inserts a user; undefined when the name or the referral code is taken. */
export async function insertUser(
  q: Queryable,
  values: Pick<UserRow, 'userName' | 'nickName' | 'referralCode' | 'inviterId' | 'location'>,
): Promise<UserRow | undefined> {
  const res = await q.query<UserRecord>(
    `INSERT INTO users AS u (user_name, nick_name, referral_code, inviter_id, location)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING
     RETURNING ${USER_COLUMNS}`,
    [values.userName, values.nickName, values.referralCode, values.inviterId, values.location],
  )
  return res.rows[0] && toUser(res.rows[0])
}

/**
 * Opens a session; a live session opened by the same signed pair is revoked first. Call inside
 * a transaction: logins with one pair are serialised on a lock keyed by the pair.
 */
export async function openSession(
  q: Queryable,
  values: {
    userId: number
    tokenHash: Buffer
    pairHash: Buffer
    ip: string
    expiresAt: Date
    loginMessage: 'legacy' | 'siwe'
  },
): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock($1)', [values.pairHash.readBigInt64BE(0).toString()])
  await q.query(
    'UPDATE sessions SET revoked_at = now() WHERE pair_hash = $1 AND revoked_at IS NULL',
    [values.pairHash],
  )
  await q.query(
    `INSERT INTO sessions (user_id, token_hash, pair_hash, ip, expires_at, login_message)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      values.userId,
      values.tokenHash,
      values.pairHash,
      values.ip,
      values.expiresAt,
      values.loginMessage,
    ],
  )
}

/**
 * The session lookup every signed-in request makes, as a named prepared statement: each
 * connection parses and plans it once instead of on every request.
 */
export async function findLiveSession(
  q: Queryable,
  hash: Buffer,
): Promise<{ sessionId: number; user: UserRow } | undefined> {
  const res = await q.query<UserRecord & { session_id: string }>({
    name: 'find_live_session',
    text: `SELECT s.id AS session_id, ${USER_COLUMNS}
           FROM sessions s JOIN users u ON u.id = s.user_id
           WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
    values: [hash],
  })
  const row = res.rows[0]
  return row && { sessionId: Number(row.session_id), user: toUser(row) }
}

export async function revokeSession(q: Queryable, sessionId: number): Promise<void> {
  await q.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [
    sessionId,
  ])
}

/** The id of the user signed in as `userName` (a lower-case address), if any. */
export async function findUserIdByName(
  q: Queryable,
  userName: string,
): Promise<number | undefined> {
  const res = await q.query<{ id: number }>('SELECT id::int FROM users WHERE user_name = $1', [
    userName,
  ])
  return res.rows[0]?.id
}

/** Serialises the nonces handed to one IP, so a burst cannot pass its bound together. */
const NONCE_IP_LOCK = LOCK_KEYS.loginNoncesPerIp

/**
 * Keeps a login nonce handed out for `address` with its message's times, within the bounds: at
 * most `perIp` unspent nonces of the asking IP and `total` unspent in all at `issuedAt` (past
 * either nothing is kept: false), the newest `perAddress` of the address (older ones go). A
 * few expired ones are dropped on the way, so the work per call stays bounded.
 */
export async function insertLoginNonce(
  q: Queryable,
  n: { nonce: string; address: string; ip: string; issuedAt: Date; expiresAt: Date },
  bounds: { perAddress: number; perIp: number; total: number },
): Promise<boolean> {
  const address = n.address.toLowerCase()
  await q.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [NONCE_IP_LOCK, n.ip])
  await q.query(
    `DELETE FROM login_nonces WHERE nonce IN (
       SELECT nonce FROM login_nonces WHERE expires_at <= $1 LIMIT 100)`,
    [n.issuedAt],
  )
  const { rows } = await q.query<{ ip: number; total: number }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM login_nonces
              WHERE ip = $1 AND used_at IS NULL AND expires_at > $2 LIMIT $3) a)::int AS ip,
            (SELECT count(*) FROM (SELECT 1 FROM login_nonces
              WHERE used_at IS NULL AND expires_at > $2 LIMIT $4) b)::int AS total`,
    [n.ip, n.issuedAt, bounds.perIp, bounds.total],
  )
  if (rows[0]!.ip >= bounds.perIp || rows[0]!.total >= bounds.total) return false
  await q.query(
    `INSERT INTO login_nonces (nonce, address, ip, issued_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    [n.nonce, address, n.ip, n.issuedAt, n.expiresAt],
  )
  await q.query(
    `DELETE FROM login_nonces WHERE nonce IN (
       SELECT nonce FROM login_nonces WHERE address = $1
        ORDER BY expires_at DESC, nonce OFFSET $2)`,
    [address, bounds.perAddress],
  )
  return true
}

/**
 * The times `nonce`'s message was handed out with, while the nonce is `address`'s, unspent and
 * unexpired at `now`; null otherwise. `issuedAt` is null for a nonce kept before it was stored.
 */
export async function usableLoginNonce(
  q: Queryable,
  nonce: string,
  address: string,
  now: Date,
): Promise<{ issuedAt: Date | null; expiresAt: Date } | null> {
  const res = await q.query<{ issuedAt: Date | null; expiresAt: Date }>(
    `SELECT issued_at AS "issuedAt", expires_at AS "expiresAt" FROM login_nonces
      WHERE nonce = $1 AND address = $2 AND used_at IS NULL AND expires_at > $3`,
    [nonce, address.toLowerCase(), now],
  )
  return res.rows[0] ?? null
}

/** Spends `nonce` (once); false when it was spent already, expired or not `address`'s. */
export async function spendLoginNonce(
  q: Queryable,
  nonce: string,
  address: string,
  now: Date,
): Promise<boolean> {
  const res = await q.query(
    `UPDATE login_nonces SET used_at = $3
      WHERE nonce = $1 AND address = $2 AND used_at IS NULL AND expires_at > $3`,
    [nonce, address.toLowerCase(), now],
  )
  return (res.rowCount ?? 0) > 0
}

/** Sessions opened since `since`, by the message that opened them. */
export async function signInsSince(
  q: Queryable,
  since: Date,
): Promise<{ legacy: number; siwe: number }> {
  const res = await q.query<{ legacy: number; siwe: number }>(
    `SELECT count(*) FILTER (WHERE login_message = 'legacy')::int AS legacy,
            count(*) FILTER (WHERE login_message = 'siwe')::int AS siwe
       FROM sessions WHERE created_at >= $1`,
    [since],
  )
  return res.rows[0]!
}

/**
 * Sessions opened in [from, to), by the day they opened on (in a time zone `offsetMinutes` east
 * of UTC, as `YYYY-MM-DD`) and the message that opened them; days without any are absent.
 */
export async function signInsByDay(
  q: Queryable,
  range: { from: Date; to: Date },
  offsetMinutes: number,
): Promise<{ day: string; siwe: number; legacy: number }[]> {
  const res = await q.query<{ day: string; siwe: number; legacy: number }>(
    `SELECT to_char((created_at AT TIME ZONE 'UTC') + make_interval(mins => $3), 'YYYY-MM-DD') AS day,
            count(*) FILTER (WHERE login_message = 'siwe')::int AS siwe,
            count(*) FILTER (WHERE login_message = 'legacy')::int AS legacy
       FROM sessions WHERE created_at >= $1 AND created_at < $2
      GROUP BY 1 ORDER BY 1`,
    [range.from, range.to, offsetMinutes],
  )
  return res.rows
}

/** A member's level (0 none): written by membership, for an upgrade or an operator's change. */
export async function setLevel(q: Queryable, userId: number, level: number): Promise<void> {
  await q.query('UPDATE users SET level = $2 WHERE id = $1', [userId, level])
}

/** Where a member is placed under its inviter (membership's placement rules decide). */
export async function setLocation(q: Queryable, userId: number, location: number): Promise<void> {
  await q.query('UPDATE users SET location = $2 WHERE id = $1', [userId, location])
}

/** Marks a member as a robot (settlement pays robots nothing) or takes the mark away. */
export async function setRobot(q: Queryable, userId: number, robot: boolean): Promise<void> {
  await q.query('UPDATE users SET is_robot = $2 WHERE id = $1', [userId, robot])
}
