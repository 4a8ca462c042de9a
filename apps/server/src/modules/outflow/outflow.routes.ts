import type { FastifyInstance } from 'fastify'
import { parseAmount, trimDecimal, CURRENCY_DECIMALS } from '@hope/api'
import { AppError } from '../../lib/app-error.ts'
import { defineRoute } from '../../plugins/routes.ts'

export async function outflowRoutes(app: FastifyInstance): Promise<void> {
  const outflows = app.services.outflows
  defineRoute(app, 'userAccount/outflowTypedData', async ({ session, params }) => {
    const user = session!.user
    if (params.kind === 'activate') {
      // The price is the server's to say: the member's level decides it. Membership registers
      // after this module (its activations are checked here), so it is looked up per request.
      const to = params.address!
      const amount = await app.services.membership.activationPrice(user, {
        address: to,
        level: params.level!,
      })
      return outflows.typedData(user, {
        kind: 'activate',
        to,
        amount,
        idempotencyKey: params.idempotencyKey,
      })
    }
    const to = params.address ?? (params.kind === 'withdraw' ? user.userName : undefined)
    if (!to) throw new AppError('address_required')
    return outflows.typedData(user, {
      kind: params.kind,
      to: to as `0x${string}`,
      amount: parseAmount(trimDecimal(params.amount!), CURRENCY_DECIMALS.USDT)!,
      idempotencyKey: params.idempotencyKey,
    })
  })
}
