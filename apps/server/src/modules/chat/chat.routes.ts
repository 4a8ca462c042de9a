import fastifyWebsocket from '@fastify/websocket'
import { CHAT_SOCKET_PATH } from '@hope/api'
import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'
import { createChatHub } from './chat.hub.ts'
import { toChatMessage } from './chat.service.ts'
import { createChatSeats } from './chat.seats.ts'
import { handleChatSocket } from './chat.socket.ts'
import { openSlotStore } from '../../lib/slot-store.ts'

/**
 * The support chat: the socket at `GET /api/chat/ws` and the HTTP routes of the contract. Each
 * server process has its own hub of sockets and its own listening connection.
 */
export async function chatRoutes(app: FastifyInstance) {
  const chat = app.services.chat
  const hub = createChatHub({ chat, connection: app.db.pool.options, log: app.log })
  app.decorate('chatHub', hub)
  // Sockets per user count over every process: in Redis when configured, else in PostgreSQL.
  const seats = createChatSeats({
    store: openSlotStore({
      redisUrl: app.config.redisUrl,
      redisPrefix: app.config.redisPrefix,
      pool: app.db.pool,
      log: (msg, err) => app.log.warn({ err }, msg),
    }),
    log: (msg, err) => app.log.warn({ err }, msg),
  })
  await app.register(fastifyWebsocket, {
    // A send frame holds at most CHAT_BODY_MAX characters; anything far bigger is refused (1009).
    options: { maxPayload: 16 * 1024 },
    // Sockets are closed by the hub with "going away", so clients reconnect to another process.
    preClose: async () => {
      await hub.close()
      app.websocketServer.close()
      await seats.close()
    },
  })

  app.get(CHAT_SOCKET_PATH, { websocket: true }, (socket, req) =>
    handleChatSocket({ hub, chat, users: app.services.users, seats }, socket, req),
  )

  defineRoute(app, 'main/contact', () => chat.contact())
  defineRoute(app, 'chat/history', ({ session, params }) => chat.history(session!.user.id, params))
  defineRoute(app, 'chat/send', async ({ session, params }) => {
    const { message, replayed } = await chat.send(session!.user.id, params)
    return { message: toChatMessage(message), replayed }
  })
  defineRoute(app, 'chat/read', ({ session, params }) => chat.read(session!.user.id, params.upToId))
  defineRoute(app, 'chat/unread', ({ session }) => chat.unread(session!.user.id))
  defineRoute(app, 'admin/chatList', ({ params }) => chat.adminList(params))
  defineRoute(app, 'admin/chatHistory', ({ params }) => chat.adminHistory(params))
  defineRoute(app, 'admin/chatReply', ({ operator, params }) => chat.adminReply(operator!, params))
  defineRoute(app, 'admin/chatRead', ({ params }) => chat.adminRead(params))
}

// Registered on the app itself, not in a child scope, so that `chatHub` is the app's (Fastify's
// documented 'skip-override', what fastify-plugin sets).
Object.assign(chatRoutes, { [Symbol.for('skip-override')]: true })

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's chat sockets (see chat.hub.ts). */
    chatHub: import('./chat.hub.ts').ChatHub
  }
}
