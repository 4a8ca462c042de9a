import {
  BlockNotFoundError,
  HttpRequestError,
  InternalRpcError,
  RpcRequestError,
  TimeoutError,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { broadcastRefusal, isAbsentAnswer, nonceHolder } from './chain.rules.ts'

const hash = `0x${'ab'.repeat(32)}` as const
const url = 'http://127.0.0.1:8545'

describe('chain rules', () => {
  test('only the node saying "not found" is chain state', () => {
    expect(isAbsentAnswer(new BlockNotFoundError({ blockNumber: 7n }))).toBe(true)
    expect(isAbsentAnswer(new TransactionReceiptNotFoundError({ hash }))).toBe(true)
    expect(isAbsentAnswer(new TransactionNotFoundError({ hash }))).toBe(true)
  })

  test('a failed call is not an answer', () => {
    expect(isAbsentAnswer(new HttpRequestError({ url, status: 500 }))).toBe(false)
    expect(isAbsentAnswer(new TimeoutError({ body: {}, url }))).toBe(false)
    const rpc = new RpcRequestError({ body: {}, url, error: { code: -32603, message: 'boom' } })
    expect(isAbsentAnswer(rpc)).toBe(false)
    expect(isAbsentAnswer(new InternalRpcError(rpc))).toBe(false)
    expect(isAbsentAnswer(new Error('fetch failed'))).toBe(false)
    expect(isAbsentAnswer(null)).toBe(false)
    expect(isAbsentAnswer('BlockNotFoundError')).toBe(false)
  })

  test('a refused broadcast is a duplicate, a used nonce, or something else', () => {
    expect(broadcastRefusal('already known')).toBe('duplicate')
    expect(broadcastRefusal('Transaction already imported')).toBe('duplicate')
    expect(broadcastRefusal('known transaction: 0xab')).toBe('duplicate')
    expect(broadcastRefusal('nonce too low')).toBe('nonce_used')
    expect(broadcastRefusal('Nonce too low: next nonce 5, tx nonce 4')).toBe('nonce_used')
    expect(broadcastRefusal('nonce has already been used')).toBe('nonce_used')
    expect(broadcastRefusal('insufficient funds for gas * price + value')).toBe('other')
    expect(broadcastRefusal('HTTP request failed. Status: 500')).toBe('other')
  })

  test('a used nonce is ours when the node knows our transaction', () => {
    expect(nonceHolder({ ourNonce: 4, minedNonce: 9, ourTransactionKnown: true })).toBe('ours')
    expect(nonceHolder({ ourNonce: 4, minedNonce: 4, ourTransactionKnown: true })).toBe('ours')
  })

  test('a used nonce is taken once the mined nonce passed it without our transaction', () => {
    expect(nonceHolder({ ourNonce: 4, minedNonce: 5, ourTransactionKnown: false })).toBe('taken')
    expect(nonceHolder({ ourNonce: 4, minedNonce: 4, ourTransactionKnown: false })).toBe(
      'unsettled',
    )
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), fc.boolean(), (ours, mined, known) => {
        const holder = nonceHolder({
          ourNonce: ours,
          minedNonce: mined,
          ourTransactionKnown: known,
        })
        // Never "taken" while our transaction is known or the nonce is not mined yet.
        if (holder === 'taken') expect(!known && mined > ours).toBe(true)
        else expect(holder).toBe(known ? 'ours' : 'unsettled')
      }),
    )
  })
})
