import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { connectChain } from '../chain/chain.service.ts'
import type { PayoutSigner } from '../signer/signer.service.ts'
import { databaseTargets, useTestApp } from '../testing/index.ts'

describe('the server jobs the modules declare', () => {
  const t = useTestApp(databaseTargets()[0]!)
  const chain = connectChain('http://127.0.0.1:1', 31337)
  const hotWallet = {
    address: `0x${'1'.repeat(40)}`,
    signPayout: () => Promise.reject(new Error('no payouts here')),
  } as PayoutSigner
  const porPublisher = privateKeyToAccount(`0x${'2'.repeat(64)}`)
  const jobsWith = (keys: { hot: boolean; por: boolean }) =>
    t.app
      .jobs({
        pool: t.db.pool,
        chain,
        hotWallet: keys.hot ? hotWallet : null,
        porPublisher: keys.por ? porPublisher : null,
        log: t.app.log,
      })
      .map(({ name, intervalMs, runAtStart }) => ({ name, intervalMs, runAtStart }))

  test('in the order of the modules, each with its interval', () => {
    expect(jobsWith({ hot: true, por: true })).toEqual([
      { name: 'ranking snapshot', intervalMs: 60_000, runAtStart: undefined },
      { name: 'deposit watcher', intervalMs: 2_000, runAtStart: undefined },
      { name: 'withdrawal sender', intervalMs: 2_000, runAtStart: undefined },
      { name: 'chain reconciliation', intervalMs: 60_000, runAtStart: true },
      { name: 'account volumes', intervalMs: 10_000, runAtStart: true },
      { name: 'price sampler', intervalMs: 60_000, runAtStart: undefined },
      { name: 'daily settlement', intervalMs: 60_000, runAtStart: undefined },
      { name: 'proof of liabilities', intervalMs: 15_000, runAtStart: true },
      { name: 'ledger check', intervalMs: 600_000, runAtStart: true },
    ])
  })

  test('the sender only with a hot wallet, the proof only with its publisher', () => {
    const names = jobsWith({ hot: false, por: false }).map((j) => j.name)
    expect(names).not.toContain('withdrawal sender')
    expect(names).not.toContain('proof of liabilities')
    expect(names).toHaveLength(7)
  })
})
