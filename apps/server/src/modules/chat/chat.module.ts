import type { LimitStore } from '../../lib/limit-store.ts'
import { defineModule, type ModuleClock } from '../../plugins/module.ts'
import { chatRoutes } from './chat.routes.ts'
import { createChatService } from './chat.service.ts'

/** The support chat; its sending limits count in the app's one limit store. */
export const chatModule = defineModule(
  'chat',
  async (app, opts: ModuleClock & { limits: LimitStore }) => {
    app.services.chat = createChatService({
      pool: app.db.pool,
      settings: app.services.settings,
      limits: opts.limits,
      ...(opts.now ? { now: opts.now } : {}),
    })
    await app.register(chatRoutes)
  },
)
