import {
  bigint,
  boolean,
  customType,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core'

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' })

export const users = pgTable('users', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  userName: text('user_name').notNull().unique(),
  nickName: text('nick_name').notNull(),
  image: text('image').notNull().default(''),
  referralCode: text('referral_code').notNull().unique(),
  level: smallint('level').notNull().default(0),
  gamePoints: numeric('game_points').notNull().default('0'),
  inviterId: bigint('inviter_id', { mode: 'number' }).references((): AnyPgColumn => users.id),
  location: smallint('location').notNull().default(1),
  isRobot: boolean('is_robot').notNull().default(false),
  /** Uplines, root first; maintained by a trigger on insert. */
  ancestorIds: bigint('ancestor_ids', { mode: 'number' }).array().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

export const sessions = pgTable('sessions', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id),
  tokenHash: bytea('token_hash').notNull().unique(),
  pairHash: bytea('pair_hash').notNull(),
  ip: text('ip'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
})
