import type { FastifyInstance } from 'fastify'
import { defineRoute, requestOrigin } from '../../plugins/routes.ts'
import { toUserInfo } from './user.service.ts'

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const users = app.services.users
  const ctx = (req: Parameters<typeof requestOrigin>[0]) => ({
    ip: req.ip,
    origin: requestOrigin(req),
    userAgent: req.headers['user-agent'],
  })

  defineRoute(app, 'user/getUserInfoByName', async ({ params, req }) => {
    await app.guardLookup(req)
    return users.checkRegistered(params.userName)
  })

  // The same check for the app: a wallet not registered yet is an answer, not an error.
  defineRoute(app, 'user/lookup', async ({ params, req }) => {
    await app.guardLookup(req)
    return users.findPublic(params.userName)
  })

  // Before the wallet signs a registration: a mistyped code is said without a signature.
  defineRoute(app, 'user/checkInvitationCode', async ({ params, req }) => {
    await app.guardLookup(req)
    return users.checkInvitationCode(params.invitationCode)
  })

  // Each call keeps a nonce: counted per IP like the address look-ups.
  defineRoute(app, 'user/loginMessage', async ({ params, req }) => {
    await app.guardLookup(req)
    return { message: await users.loginMessage(params.username, { ip: req.ip }) }
  })

  defineRoute(app, 'user/register', ({ params, req }) =>
    app.guardWalletSignIn(req, params.username, () => users.register(params, ctx(req))),
  )

  defineRoute(app, 'user/logining', ({ params, req }) =>
    app.guardWalletSignIn(req, params.username, () => users.login(params, ctx(req))),
  )

  defineRoute(app, 'user/getUserInfo', async ({ session, req }) => ({
    ...toUserInfo(session!.user, requestOrigin(req)),
    nodes: await app.services.membership.nodeTypes(session!.user.id),
  }))

  defineRoute(app, 'user/logout', async ({ session }) => {
    await users.logout(session!)
    return null
  })
}
