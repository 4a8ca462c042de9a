import { defineModule } from '../define-module.ts'
import { chatRoutes } from './chat.routes.ts'
import { createChatService } from './chat.service.ts'

/** The support chat; its sending limits count in the app's one limit store. */
export const chatModule = defineModule({
  name: 'chat',
  services: (app, opts) => ({
    chat: createChatService({
      pool: app.db.pool,
      settings: app.services.settings,
      limits: opts.limits,
      ...(opts.now ? { now: opts.now } : {}),
    }),
  }),
  routes: chatRoutes,
})
