import { randomBytes } from 'node:crypto'
import { parseLoginMessage, type LoginResult, type PublicUser, type UserInfo } from '@hope/api'
import { getAddress } from 'viem'
import { createSiweMessage, generateSiweNonce, parseSiweMessage } from 'viem/siwe'
import type pg from 'pg'
import { inTransaction, type Queryable } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import type { SignatureVerifier } from '../../lib/signature.ts'
import type { NoticeService } from '../notice/notice.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import * as repo from './user.repository.ts'
import {
  SIWE_STATEMENT,
  TOKEN_PATTERN,
  checkSiweFields,
  checkLoginTime,
  matchesIssuedSiwe,
  defaultNickName,
  invitationLink,
  normalizeReferralCode,
  pairHash,
  referralCodeFrom,
  tokenHash,
} from './user.rules.ts'

/** The user signed in as `userName` (a wallet address), in the caller's transaction. */
export function findUserByName(q: Queryable, userName: string): Promise<repo.UserRow | undefined> {
  return repo.findUserByName(q, userName)
}

/** The id of the user signed in as `userName` (a lower-case address), if any. */
export function findUserIdByName(q: Queryable, userName: string): Promise<number | undefined> {
  return repo.findUserIdByName(q, userName)
}

/** Sets a member's level (0 none): an upgrade or an operator's change, decided by membership. */
export function setLevel(q: Queryable, userId: number, level: number): Promise<void> {
  return repo.setLevel(q, userId, level)
}

/** Places a member under its inviter, where membership's placement rules decide. */
export function setLocation(q: Queryable, userId: number, location: number): Promise<void> {
  return repo.setLocation(q, userId, location)
}

/** Marks a member as a robot (settlement pays robots nothing) or takes the mark away. */
export function setRobot(q: Queryable, userId: number, robot: boolean): Promise<void> {
  return repo.setRobot(q, userId, robot)
}

export interface SignedPair {
  username: `0x${string}`
  message: string
  signature: `0x${string}`
}

export interface RequestContext {
  ip: string
  /** Origin for invitation links (PUBLIC_URL). */
  origin: string
  /** The browser as it names itself: a new one gets a security notice. */
  userAgent?: string | undefined
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
  /** The chain sign-in messages name (EIP-4361 `Chain ID`); 1 when there is none. */
  chainId?: () => number | undefined
  /**
   * Where sign-in messages say the user signs in: `url` (PUBLIC_URL) in those handed out,
   * `url` or one of `origins` (PUBLIC_ORIGINS) in those accepted. Configuration only: a
   * request's Host never names the site.
   */
  site: { url: string; origins: readonly string[] }
  now?: () => number
  notices: NoticeService
}) {
  const { pool, settings, verifySignature } = deps
  const now = deps.now ?? Date.now
  const chainId = () => deps.chainId?.() ?? 1
  const siteOrigins = [deps.site.url, ...deps.site.origins]
  const signIns = { legacy: 0, siwe: 0 }

  /**
   * Checks the message and that `username` signed it: a Sign-In with Ethereum message for this
   * server (one of its origins, the address, the statement, version 1, the chain, an unspent
   * nonce handed out for the address, and exactly the times handed out with it), or,
   * while the setting `legacyLoginMessage` is on, the spec's `HOPE Login<ms>` in its window.
   * Answers the nonce a Sign-In with Ethereum message spends when its session opens.
   */
  async function verifyPair(pair: SignedPair): Promise<SignInKind> {
    const s = await settings.get()
    const messageMs = parseLoginMessage(pair.message)
    let kind: SignInKind
    if (messageMs !== null) {
      if (!s.legacyLoginMessage) throw new AppError('invalid_message')
      const time = checkLoginTime(messageMs, now(), {
        windowMs: s.loginWindowMs,
        futureSkewMs: s.loginFutureSkewMs,
      })
      if (time === 'expired') throw new AppError('signature_expired')
      if (time === 'future') throw new AppError('message_time_invalid')
      kind = { legacy: true }
    } else {
      const fields = parseSiweMessage(pair.message)
      const verdict = checkSiweFields(fields, {
        origins: siteOrigins,
        address: pair.username,
        chainId: chainId(),
        nowMs: now(),
        futureSkewMs: s.loginFutureSkewMs,
      })
      if (verdict !== 'ok') throw new AppError(verdict)
      // A nonce never handed out for this address, spent, expired or kept before its issue time
      // was: sign a new message.
      const issued = await repo.usableLoginNonce(
        pool,
        fields.nonce!,
        pair.username,
        new Date(now()),
      )
      if (!issued?.issuedAt) throw new AppError('signature_expired')
      const times = { issuedAt: issued.issuedAt, expiresAt: issued.expiresAt }
      if (!matchesIssuedSiwe(pair.message, fields, times)) throw new AppError('invalid_message')
      kind = { legacy: false, nonce: fields.nonce! }
    }
    if (!(await verifySignature(pair.username, pair.message, pair.signature))) {
      throw new AppError('signature_invalid')
    }
    return kind
  }

  async function issueSession(
    user: repo.UserRow,
    pair: SignedPair,
    kind: SignInKind,
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
      loginMessage: kind.legacy ? ('legacy' as const) : ('siwe' as const),
    }
    await inTransaction(pool, async (q) => {
      // The message's nonce is spent with the session it opens: one message, one session.
      if (
        !kind.legacy &&
        !(await repo.spendLoginNonce(q, kind.nonce, pair.username, new Date(now())))
      )
        throw new AppError('signature_expired')
      await repo.openSession(q, values)
      await deps.notices.signedIn(user.id, ctx, q)
    })
    signIns[kind.legacy ? 'legacy' : 'siwe'] += 1
    return { ...toUserInfo(user, ctx.origin), token }
  }

  const findPublic = async (userName: string): Promise<PublicUser | null> => {
    const user = await repo.findUserByName(pool, userName)
    return user ? { userName: user.userName, nickName: user.nickName, image: user.image } : null
  }
  return {
    /** Sign-ins opened by this process since it started, by message: for the metrics. */
    signIns,

    /** Sessions opened in the last `days` days, by message: for the console. */
    async signInsOfLastDays(days: number): Promise<{ legacy: number; siwe: number }> {
      return repo.signInsSince(pool, new Date(now() - days * 86_400_000))
    },

    /**
     * Sessions opened in [from, to) per local day (`offsetMinutes` east of UTC) and message:
     * for the console; days without any are absent.
     */
    async signInsByDay(
      range: { from: Date; to: Date },
      offsetMinutes: number,
    ): Promise<{ day: string; siwe: number; legacy: number }[]> {
      return repo.signInsByDay(pool, range, offsetMinutes)
    },

    /**
     * A Sign-In with Ethereum message (EIP-4361) for `address` to sign: PUBLIC_URL's domain
     * and origin (whatever Host the request came with), version 1, the chain, a single-use nonce
     * kept for the address with the issue time and an expiry at the end of the login window.
     */
    async loginMessage(address: string, from: { ip: string }): Promise<string> {
      const s = await settings.get()
      const issuedAt = new Date(now())
      const expirationTime = new Date(issuedAt.getTime() + s.loginWindowMs)
      const nonce = generateSiweNonce()
      const kept = await inTransaction(pool, (q) =>
        repo.insertLoginNonce(
          q,
          { nonce, address, ip: from.ip, issuedAt, expiresAt: expirationTime },
          {
            perAddress: s.loginNoncesPerAddress,
            perIp: s.loginNoncesPerIp,
            total: s.loginNoncesMax,
          },
        ),
      )
      // Too many unspent from this IP, or in all: refused, never someone else's evicted.
      if (!kept) throw new AppError('rate_limited')
      return createSiweMessage({
        domain: new URL(deps.site.url).host,
        address: getAddress(address),
        statement: SIWE_STATEMENT,
        uri: deps.site.url,
        version: '1',
        chainId: chainId(),
        nonce,
        issuedAt,
        expirationTime,
      })
    },

    async checkRegistered(userName: string): Promise<PublicUser> {
      const user = await findPublic(userName)
      if (!user) throw new AppError('not_registered')
      return user
    },

    /** The public profile of a username; null when no one registered it. */
    findPublic,

    /**
     * Refuses an invitation code no member gave out (case and spaces do not matter), as the
     * registration would, before any signature.
     */
    async checkInvitationCode(code: string): Promise<null> {
      const inviter = await repo.findUserByReferralCode(pool, normalizeReferralCode(code))
      if (!inviter) throw new AppError('invitation_code_unknown')
      return null
    },

    async register(
      input: SignedPair & {
        location: number
        pusername?: string | undefined
        invitationCode?: string | undefined
      },
      ctx: RequestContext,
    ): Promise<LoginResult> {
      const kind = await verifyPair(input)
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
        if (created) return issueSession(created, input, kind, ctx)
        // Either the address registered meanwhile, or the random code collided: tell which.
        if (await repo.findUserByName(pool, input.username))
          throw new AppError('already_registered')
      }
      throw new AppError('internal_error', { detail: 'no free referral code' })
    },

    async login(input: SignedPair, ctx: RequestContext): Promise<LoginResult> {
      const kind = await verifyPair(input)
      const user = await repo.findUserByName(pool, input.username)
      if (!user) throw new AppError('not_registered')
      return issueSession(user, input, kind, ctx)
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

/** How a sign-in was signed: the spec's legacy message, or EIP-4361 with its nonce. */
type SignInKind = { legacy: true } | { legacy: false; nonce: string }
