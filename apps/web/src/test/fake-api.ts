import { outflowTypedData, type OutflowKind } from '@hope/api'
import { getAddress } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import {
  fakeApi as sharedFakeApi,
  ok,
  type ApiCall,
  type Handlers,
  type Reply,
} from '../../../../tests/support/fake-api.ts'

export { fail, ok, type ApiCall, type Reply } from '../../../../tests/support/fake-api.ts'

/** What every fake server answers unless a test says otherwise. */
const defaults: Handlers = {
  // A Sign-In with Ethereum message for the address asked, as the server makes it.
  'user/loginMessage': (call) =>
    ok({
      message: createSiweMessage({
        domain: 'localhost',
        address: getAddress(call.params.username ?? ''),
        statement: 'Sign in to HOPE with this wallet.',
        uri: 'http://localhost',
        version: '1',
        chainId: 31337,
        nonce: 'testNonce1234',
        issuedAt: new Date(),
        expirationTime: new Date(Date.now() + 300_000),
      }),
    }),
  // An invitation code some member gave out.
  'user/checkInvitationCode': () => ok(null),
  // A withdrawal destination that is neither refused nor a contract.
  'userAccount/checkWithdrawAddress': () => ok({ forbidden: false, contract: false }),
  // An outflow's typed data for the signed-in wallet (the session's address is the token's
  // owner in these tests: the from is what the wallet signs, whoever it is).
  'userAccount/outflowTypedData': (call) =>
    ok(
      outflowTypedData({
        kind: call.params.kind as OutflowKind,
        chainId: 1,
        from: (call.params.from ?? '0x0000000000000000000000000000000000000000') as `0x${string}`,
        to: (call.params.address ?? '0x0000000000000000000000000000000000000000') as `0x${string}`,
        amount: call.params.amount ?? '0',
        idempotencyKey: call.params.idempotencyKey ?? '',
        deadline: Math.floor(Date.now() / 1000) + 600,
      }),
    ),
}

/** Stubs fetch with the fake API server, with the app's defaults above. */
export function fakeApi(handlers: Handlers) {
  return sharedFakeApi(handlers, defaults)
}

/**
 * An answer held back until the test says: `reply` is the handler, `release()` sends `ok` of
 * what `answer` made of the call (so a test sees the screen while the request is on its way).
 */
export function heldReply(answer: (call: ApiCall) => unknown) {
  let release = () => {}
  return {
    reply: (call: ApiCall): Reply =>
      new Promise((resolve) => {
        release = () => resolve(ok(answer(call)))
      }),
    release: () => release(),
  }
}
