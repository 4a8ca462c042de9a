import { randomBytes } from 'node:crypto'
import { parseLoginMessage, type LoginResult, type PublicUser, type UserInfo } from '@hope/api'
import type pg from 'pg'
import { inTransaction } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import type { SignatureVerifier } from '../../lib/signature.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './user.repository.ts'
import {
  TOKEN_PATTERN,
  checkLoginTime,
  defaultNickName,
  invitationLink,
  normalizeReferralCode,
  pairHash,
  referralCodeFrom,
  tokenHash,
} from './user.rules.ts'

export interface SignedPair {
  username: `0x${string}`
  message: string
  signature: `0x${string}`
}

export interface RequestContext {
  ip: string
  /** Origin for invitation links. */
  origin: string
}

export interface AuthSession {
  sessionId: number
  user: repo.UserRow
}

export function toUserInfo(user: repo.UserRow, origin: string): UserInfo {
  return {
    id: user.id,
    userName: user.userName,
    nickName: user.nickName,
    image: user.image,
    referralCode: user.referralCode,
    level: user.level,
    gamePoints: user.gamePoints,
    invitationLink: invitationLink(origin, user.userName),
    location: user.location,
    isRobot: user.isRobot,
  }
}

export function createUserService(deps: {
  pool: pg.Pool
  settings: SettingsService
  verifySignature: SignatureVerifier
  now?: () => number
}) {
  const { pool, settings, verifySignature } = deps
  const now = deps.now ?? Date.now

  /** Checks the message format, its time window and that `username` signed it. */
  async function verifyPair(pair: SignedPair): Promise<void> {
    const messageMs = parseLoginMessage(pair.message)
    if (messageMs === null) throw new AppError('invalid_message')
    const s = await settings.get()
    const time = checkLoginTime(messageMs, now(), {
      windowMs: s.loginWindowMs,
      futureSkewMs: s.loginFutureSkewMs,
    })
    if (time === 'expired') throw new AppError('signature_expired')
    if (time === 'future') throw new AppError('message_time_invalid')
    if (!(await verifySignature(pair.username, pair.message, pair.signature))) {
      throw new AppError('signature_invalid')
    }
  }

  async function issueSession(
    user: repo.UserRow,
    pair: SignedPair,
    ctx: RequestContext,
  ): Promise<LoginResult> {
    const token = randomBytes(32).toString('base64url')
    const s = await settings.get()
    const values = {
      userId: user.id,
      tokenHash: tokenHash(token),
      pairHash: pairHash(pair.username, pair.message),
      ip: ctx.ip,
      expiresAt: new Date(now() + s.sessionTtlMs),
    }
    await inTransaction(pool, (q) => repo.openSession(q, values))
    return { ...toUserInfo(user, ctx.origin), token }
  }

  return {
    async checkRegistered(userName: string): Promise<PublicUser> {
      const user = await repo.findUserByName(pool, userName)
      if (!user) throw new AppError('not_registered')
      return { userName: user.userName, nickName: user.nickName, image: user.image }
    },

    async register(
      input: SignedPair & {
        location: number
        pusername?: string | undefined
        invitationCode?: string | undefined
      },
      ctx: RequestContext,
    ): Promise<LoginResult> {
      await verifyPair(input)
      if (await repo.findUserByName(pool, input.username)) throw new AppError('already_registered')

      let inviter: repo.UserRow | undefined
      if (input.pusername) {
        inviter = await repo.findUserByName(pool, input.pusername)
        if (!inviter) throw new AppError('inviter_not_found')
      } else if (input.invitationCode) {
        inviter = await repo.findUserByReferralCode(
          pool,
          normalizeReferralCode(input.invitationCode),
        )
        // A mistyped code names nobody: the code is what the user should check.
        if (!inviter) throw new AppError('invitation_code_unknown')
      } else throw new AppError('invitation_code_required')

      for (let attempt = 0; attempt < 5; attempt++) {
        const created = await repo.insertUser(pool, {
          userName: input.username,
          nickName: defaultNickName(input.username),
          referralCode: referralCodeFrom(randomBytes(8)),
          inviterId: inviter.id,
          location: input.location,
        })
        if (created) return issueSession(created, input, ctx)
        // Either the address registered meanwhile, or the random code collided: tell which.
        if (await repo.findUserByName(pool, input.username))
          throw new AppError('already_registered')
      }
      throw new AppError('internal_error', { detail: 'no free referral code' })
    },

    async login(input: SignedPair, ctx: RequestContext): Promise<LoginResult> {
      await verifyPair(input)
      const user = await repo.findUserByName(pool, input.username)
      if (!user) throw new AppError('not_registered')
      return issueSession(user, input, ctx)
    },

    /** Resolves the `token` header to a live session. */
    async authenticate(token: unknown): Promise<AuthSession> {
      if (typeof token !== 'string' || token === '') throw new AppError('not_logged_in')
      if (!TOKEN_PATTERN.test(token)) throw new AppError('session_expired')
      const found = await repo.findLiveSession(pool, tokenHash(token))
      if (!found) throw new AppError('session_expired')
      return found
    },

    async logout(session: AuthSession): Promise<void> {
      await repo.revokeSession(pool, session.sessionId)
    },
  }
}

export type UserService = ReturnType<typeof createUserService>
