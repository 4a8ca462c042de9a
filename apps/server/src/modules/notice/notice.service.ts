import { createHash } from 'node:crypto'
import type { NoticeKind, NoticePage, SecurityNotice } from '@hope/api'
import type pg from 'pg'
import type { Queryable } from '../../db/transaction.ts'
import * as repo from './notice.repository.ts'

/** The browser as it names itself, cut short: shown to the user, hashed to know the device. */
export function deviceOf(userAgent: string | undefined): { name: string; hash: Buffer } {
  const name = [...(userAgent ?? '').slice(0, 120)]
    .map((c) => (c.charCodeAt(0) < 32 ? ' ' : c))
    .join('')
  return {
    name,
    hash: createHash('sha256')
      .update(userAgent ?? '')
      .digest(),
  }
}

/**
 * The bell: security notices for what a thief would make happen, written where it happens
 * (in the same transaction when there is one), read and cleared by the user.
 */
export function createNoticeService(deps: { pool: pg.Pool }) {
  const { pool } = deps
  return {
    notify(
      userId: number,
      kind: NoticeKind,
      detail: SecurityNotice['detail'],
      q: Queryable = pool,
    ): Promise<void> {
      return repo.insertNotice(q, userId, kind, detail)
    },

    /** A sign-in: a notice when its device is new to a user who signed in elsewhere before. */
    async signedIn(
      userId: number,
      ctx: { ip: string; userAgent?: string | undefined },
      q: Queryable = pool,
    ): Promise<void> {
      const device = deviceOf(ctx.userAgent)
      const seen = await repo.rememberDevice(q, userId, device.hash)
      if (seen.isNew && seen.hadOthers)
        await repo.insertNotice(q, userId, 'new_device', { ip: ctx.ip, device: device.name })
    },

    async list(userId: number, page: { pageNum: number; pageSize: number }): Promise<NoticePage> {
      const [list, counts] = await Promise.all([
        repo.listNotices(pool, userId, {
          limit: page.pageSize,
          offset: (page.pageNum - 1) * page.pageSize,
        }),
        repo.countNotices(pool, userId),
      ])
      return { list, total: counts.total, unread: counts.unread, ...page }
    },

    async readAll(userId: number): Promise<{ unread: number }> {
      await repo.markAllRead(pool, userId)
      return { unread: 0 }
    },
  }
}

export type NoticeService = ReturnType<typeof createNoticeService>
