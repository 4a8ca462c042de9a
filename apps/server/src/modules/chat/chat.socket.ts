import {
  CHAT_AUTH_TIMEOUT_MS,
  CHAT_CLOSE,
  ChatClientFrame,
  ChatSendParams,
  REASON_CODES,
  langFromHeader,
  reasonMessage,
  type ChatServerFrame,
  type Lang,
  type Reason,
} from '@hope/api'
import type { FastifyRequest } from 'fastify'
import type { RawData, WebSocket } from 'ws'
import { isAppError } from '../../lib/app-error.ts'
import type { UserService } from '../user/user.service.ts'
import type { ChatClient, ChatHub } from './chat.hub.ts'
import type { ChatSeat, ChatSeats } from './chat.seats.ts'
import { toChatMessage, type ChatService } from './chat.service.ts'
import { fieldWithNul } from '../../security/text.ts'

export interface ChatSocketDeps {
  hub: ChatHub
  chat: ChatService
  users: UserService
  seats: ChatSeats
  authTimeoutMs?: number
}

/** Close code for "the server cannot serve this now" (RFC 6455 §7.4.1, 1013 Try Again Later). */
const TRY_AGAIN_LATER = 1013
const MAX_EARLY_FRAMES = 16

function parseFrame(data: RawData, isBinary: boolean): ChatClientFrame | null {
  if (isBinary) return null
  try {
    const parsed = ChatClientFrame.safeParse(JSON.parse(data.toString()))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The reason of a failure the user should see; anything unexpected is an internal error. */
function reasonOf(err: unknown): Reason {
  return isAppError(err) ? err.reason : 'internal_error'
}

/**
 * One chat socket: it must authenticate with its first frame within the time-out, then it
 * receives the conversation's messages live and may send its own. A socket never sees or
 * writes any conversation but its token's user's.
 */
export function handleChatSocket(deps: ChatSocketDeps, socket: WebSocket, req: FastifyRequest) {
  const { hub, chat, users } = deps
  let lang: Lang = req.lang ?? langFromHeader(req.headers.lan)
  let client: ChatClient | null = null
  let seat: ChatSeat | null = null
  let authenticating = false
  const early: (ChatClientFrame | null)[] = []

  const frame = (f: ChatServerFrame) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(f))
  }
  const errorFrame = (reason: Reason, clientId?: string) =>
    frame({
      type: 'error',
      ...(clientId ? { clientId } : {}),
      code: REASON_CODES[reason],
      reason,
      msg: reasonMessage(reason, lang),
    })

  const authTimer = setTimeout(() => {
    if (!client) socket.close(CHAT_CLOSE.authTimeout, 'auth_timeout')
  }, deps.authTimeoutMs ?? CHAT_AUTH_TIMEOUT_MS)

  async function authenticate(token: string): Promise<void> {
    authenticating = true
    let session
    try {
      session = await users.authenticate(token)
    } catch (err) {
      if (isAppError(err) && err.code === 401) socket.close(CHAT_CLOSE.authFailed, err.reason)
      else socket.close(TRY_AGAIN_LATER, 'service_unavailable')
      return
    }
    const me: ChatClient = {
      socket,
      userId: session.user.id,
      sessionId: session.sessionId,
      alive: true,
      held: [],
    }
    // Each socket holds memory and a share of every broadcast: one user may hold only so many.
    const allowed = await chat.socketsPerUser().catch(() => null)
    if (allowed === null) {
      socket.close(TRY_AGAIN_LATER, 'service_unavailable')
      return
    }
    const refuse = () => {
      errorFrame('too_many_connections')
      socket.close(CHAT_CLOSE.tooMany, 'too_many_connections')
    }
    // Counted here with nothing awaited between the check and the count; the close handler
    // or a failed open below gives the place back.
    seat = deps.seats.take(me.userId, allowed)
    if (!seat) return refuse()
    if (socket.readyState !== socket.OPEN) return seat.release()
    try {
      // Every process's sockets of this user together: at most `allowed`.
      if (!(await seat.hold())) {
        seat.release()
        return refuse()
      }
      await hub.add(me)
    } catch (err) {
      seat.release()
      req.log.warn({ err }, 'chat: socket could not join')
      socket.close(TRY_AGAIN_LATER, 'service_unavailable')
      return
    }
    // The socket may have gone while we waited.
    if (socket.readyState !== socket.OPEN) {
      hub.remove(me)
      seat.release()
      return
    }
    client = me
    clearTimeout(authTimer)
    const unread = await chat.unread(me.userId).catch(() => ({ count: 0 }))
    frame({ type: 'ready', unread: unread.count })
    // What arrived while `ready` was being made follows it, in order.
    const held = me.held ?? []
    me.held = undefined
    for (const f of held) if (socket.readyState === socket.OPEN) socket.send(f)
  }

  async function sendMessage(me: ChatClient, raw: { clientId: string; body: string }) {
    const parsed = ChatSendParams.safeParse(raw)
    const clientId = typeof raw.clientId === 'string' ? raw.clientId : undefined
    // PostgreSQL text holds no U+0000: refused here as bad input, not failed in the database.
    if (fieldWithNul(raw) !== null) return errorFrame('invalid_params', clientId)
    if (!parsed.success) {
      const named = parsed.error.issues.find((i) => i.message in REASON_CODES)
      errorFrame(named ? (named.message as Reason) : 'invalid_params', clientId)
      return
    }
    try {
      // The revocation's announcement may still be on its way: a logged-out session never writes.
      if (!(await chat.liveSessionIds([me.sessionId])).has(me.sessionId)) {
        errorFrame('session_expired', parsed.data.clientId)
        socket.close(CHAT_CLOSE.authFailed, 'session_expired')
        return
      }
      const { message } = await chat.send(me.userId, parsed.data)
      frame({ type: 'ack', clientId: parsed.data.clientId, message: toChatMessage(message) })
    } catch (err) {
      if (!isAppError(err)) req.log.error({ err }, 'chat: send failed')
      errorFrame(reasonOf(err), parsed.data.clientId)
    }
  }

  function handle(me: ChatClient, f: ChatClientFrame | null): void {
    // Frames still arriving after the server closed the socket (a revoked session) are dropped.
    if (socket.readyState !== socket.OPEN) return
    me.alive = true
    if (!f) return errorFrame('invalid_params')
    if (f.type === 'ping') return frame({ type: 'pong' })
    if (f.type === 'send') return void sendMessage(me, f)
    return errorFrame('invalid_params')
  }

  socket.on('message', (data, isBinary) => {
    const f = parseFrame(data, isBinary)
    if (client) return handle(client, f)
    if (authenticating) {
      // Frames sent right behind the auth frame wait for it (a few at most).
      if (early.length >= MAX_EARLY_FRAMES) socket.close(CHAT_CLOSE.badFrame, 'too_early')
      else early.push(f)
      return
    }
    if (!f || f.type !== 'auth') {
      socket.close(CHAT_CLOSE.authFailed, 'not_logged_in')
      return
    }
    if (f.lan) lang = langFromHeader(f.lan)
    void authenticate(f.token).then(() => {
      const me = client
      if (me) for (const queued of early.splice(0)) handle(me, queued)
    })
  })

  socket.on('pong', () => {
    if (client) client.alive = true
  })

  socket.on('close', () => {
    clearTimeout(authTimer)
    if (client) hub.remove(client)
    seat?.release()
  })
}
