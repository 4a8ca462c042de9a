import type pg from 'pg'
import type { PublicClient } from 'viem'
import { createTypedDataVerifier } from '../lib/signature.ts'
import { createLedgerService } from '../modules/ledger/ledger.service.ts'
import { createNoticeService } from '../modules/notice/notice.service.ts'
import { createOutflowService } from '../modules/outflow/outflow.service.ts'
import { createSettingsService } from '../modules/settings/settings.service.ts'
import { createWithdrawalSender, type SenderLog } from '../modules/withdraw/withdraw.sender.ts'
import { createWithdrawService } from '../modules/withdraw/withdraw.service.ts'
import { devPayoutSigner } from './index.ts'

/**
 * The withdrawal service and the payout sender on a test's database and local chain, wired as
 * the app wires them; the sender signs with the local chain's hot wallet.
 */
export function payoutServices(pool: pg.Pool, chainId: number) {
  const settings = createSettingsService(pool)
  const ledger = createLedgerService(pool)
  const notices = createNoticeService({ pool })
  return {
    notices,
    withdrawals: createWithdrawService({
      pool,
      ledger,
      settings,
      notices,
      outflows: createOutflowService({
        settings,
        verify: createTypedDataVerifier(),
        chainId: () => chainId,
      }),
      chainId: () => chainId,
    }),
    sender: (deps: {
      client: PublicClient
      notices?: typeof notices
      afterRecord?: (withdrawalId: number) => void
      log?: SenderLog
    }) =>
      createWithdrawalSender({
        pool,
        ledger,
        settings,
        chainId,
        hotWallet: devPayoutSigner(pool),
        ...deps,
      }),
  }
}
