import type { FastifyInstance } from 'fastify'
import { sealKeyLoader } from '../modules/por/por.seal.ts'
import type pg from 'pg'
import type { LocalAccount } from 'viem'
import type { ChainConnection } from '../chain/chain.service.ts'
import type { PayoutSigner } from '../signer/signer.service.ts'
import { createVolumeJob } from '../modules/account/figures.job.ts'
import { createDepositJob } from '../modules/deposit/deposit.job.ts'
import { createLedgerCheckJob } from '../modules/console/console.job.ts'
import { createQuotesJob } from '../modules/quotes/quotes.job.ts'
import { createRankingJob } from '../modules/ranking/ranking.job.ts'
import { createReconcileJob } from '../modules/reconcile/reconcile.job.ts'
import { createWithdrawJob } from '../modules/withdraw/withdraw.job.ts'
import { createPorJob } from '../modules/por/por.job.ts'
import { createPorPublisher } from '../modules/por/por.publisher.ts'
import { buildTreeInWorker } from '../modules/por/por.tree.ts'
import type { JobDefinition } from './job.ts'

/**
 * Every background job of the server, in the order they start. The withdrawal sender runs only
 * with a hot wallet to pay from, the proof-of-liabilities snapshot only with the registry's
 * owner key to publish with.
 */
export function serverJobs(ctx: {
  app: FastifyInstance
  pool: pg.Pool
  chain: ChainConnection
  /** The signer paying approved withdrawals (its process holds the key). */
  hotWallet: PayoutSigner | null
  porPublisher?: LocalAccount | null
}): JobDefinition[] {
  const { app, pool, chain, hotWallet, porPublisher } = ctx
  const { ledger, settings } = app.services
  const onChain = { pool, ledger, settings, client: chain.client, chainId: chain.chainId }
  const logError = (extra: object, msg: string) => app.log.error(extra, msg)
  return [
    createDepositJob({
      ...onChain,
      log: (msg, extra) => app.log.warn({ extra }, msg),
      logError: (msg, extra) => app.log.error({ extra }, msg),
    }),
    ...(hotWallet
      ? [createWithdrawJob({ ...onChain, hotWallet, notices: app.services.notices, log: app.log })]
      : []),
    createReconcileJob({
      ...onChain,
      hotWallet: hotWallet?.address ?? null,
      log: app.log,
      alarmRaised: (kind) => app.metrics.chainAlarmRaised(kind),
    }),
    // The daily settlement at the configured local time; the run itself takes an advisory lock.
    {
      name: 'daily settlement',
      intervalMs: 60_000,
      tick: () => app.services.settlementJob.settleDue(),
    },
    createQuotesJob(app.services.quotes),
    createRankingJob(app.services.ranking),
    createVolumeJob(app.services.figures),
    createLedgerCheckJob(app.services.admin, logError),
    ...(porPublisher
      ? [
          createPorJob(
            createPorPublisher({
              pool,
              settings,
              chain,
              publisher: porPublisher,
              hotWallet: hotWallet?.address ?? null,
              buildTree: buildTreeInWorker,
              sealKey: sealKeyLoader(app.config),
              log: (msg, extra) => app.log.warn(extra, msg),
            }),
          ),
        ]
      : []),
  ]
}
