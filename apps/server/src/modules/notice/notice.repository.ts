import type { NoticeKind, SecurityNotice } from '@hope/api'
import type { Queryable } from '../../db/transaction.ts'

interface NoticeRow {
  id: number
  kind: NoticeKind
  detail: SecurityNotice['detail']
  createdAt: Date
  readAt: Date | null
}

export async function insertNotice(
  q: Queryable,
  userId: number,
  kind: NoticeKind,
  detail: SecurityNotice['detail'],
): Promise<void> {
  await q.query(`INSERT INTO security_notices (user_id, kind, detail) VALUES ($1, $2, $3)`, [
    userId,
    kind,
    JSON.stringify(detail),
  ])
}

export async function listNotices(
  q: Queryable,
  userId: number,
  page: { limit: number; offset: number },
): Promise<SecurityNotice[]> {
  const res = await q.query<NoticeRow>(
    `SELECT id::int, kind, detail, created_at AS "createdAt", read_at AS "readAt"
     FROM security_notices WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [userId, page.limit, page.offset],
  )
  return res.rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    detail: r.detail,
    createdAt: r.createdAt.toISOString(),
    read: r.readAt !== null,
  }))
}

export async function countNotices(
  q: Queryable,
  userId: number,
): Promise<{ total: number; unread: number }> {
  const res = await q.query<{ total: number; unread: number }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE read_at IS NULL)::int AS unread
     FROM security_notices WHERE user_id = $1`,
    [userId],
  )
  return res.rows[0]!
}

export async function markAllRead(q: Queryable, userId: number): Promise<void> {
  await q.query(
    `UPDATE security_notices SET read_at = now() WHERE user_id = $1 AND read_at IS NULL`,
    [userId],
  )
}

/** Records a device for a user; true when it was not known (and the user had others). */
export async function rememberDevice(
  q: Queryable,
  userId: number,
  deviceHash: Buffer,
): Promise<{ isNew: boolean; hadOthers: boolean }> {
  const res = await q.query<{ isNew: boolean; hadOthers: boolean }>(
    `WITH others AS (SELECT EXISTS (SELECT 1 FROM user_devices WHERE user_id = $1) AS had),
          added AS (INSERT INTO user_devices (user_id, device_hash) VALUES ($1, $2)
                    ON CONFLICT DO NOTHING RETURNING 1)
     SELECT EXISTS (SELECT 1 FROM added) AS "isNew", (SELECT had FROM others) AS "hadOthers"`,
    [userId, deviceHash],
  )
  return res.rows[0]!
}
