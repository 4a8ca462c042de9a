import type { MutationOptions } from '@tanstack/react-query'
import type { Eip1193Provider } from '../../../lib/wallet/eip1193.ts'
import {
  RechargeError,
  sendRecharge,
  type SendRechargeParameters,
  type SendRechargeResult,
} from './send-recharge.ts'

export type SendRechargeVariables = Pick<
  SendRechargeParameters,
  'deposit' | 'amount' | 'onStep' | 'switchOptions'
>

export interface SendRechargeConfig {
  provider: Eip1193Provider | null
  account: `0x${string}` | null
  record: SendRechargeParameters['record']
}

/** The recharge as a mutation: the wallet and the server call are fixed, each send varies. */
export function sendRechargeMutationOptions(config: SendRechargeConfig) {
  return {
    mutationKey: ['sendRecharge'],
    mutationFn: async (variables: SendRechargeVariables) => {
      const { provider, account, record } = config
      if (!provider || !account)
        throw new RechargeError({ kind: 'sendFailed', reason: 'no wallet connected' })
      return sendRecharge({ ...variables, provider, account, record })
    },
  } as const satisfies MutationOptions<SendRechargeResult, Error, SendRechargeVariables>
}
