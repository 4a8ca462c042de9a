import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../plugins/routes.ts'

/** Proof of liabilities: the public snapshot, a user's proof, and the console's list and action. */
export async function porRoutes(app: FastifyInstance): Promise<void> {
  const por = app.services.por
  defineRoute(app, 'por/latest', () => por.latest())
  defineRoute(app, 'por/myProof', ({ session, params }) =>
    por.myProof(session!.user, params.snapshotId),
  )
  defineRoute(app, 'por/myStatement', ({ session, params }) =>
    por.myStatement(session!.user, params.snapshotId, params.ledgerPosition),
  )
  defineRoute(app, 'admin/porSnapshots', ({ params }) => por.snapshots(params))
  defineRoute(app, 'admin/porPublish', ({ operator }) => por.requestPublish(operator!))
}
