import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { startAnvil, type LocalChain } from './anvil.ts'
import { connectChain, connectExternalChain } from './chain.service.ts'
import { blockOrNull } from './chain.reads.ts'
import { endpointLabel, isTransientFailure, rpcUrlsOf } from './chain.transport.ts'
import { startRpcProxy, type RpcProxy } from '../testing/rpc-proxy.ts'

/** The one chain client over two endpoints in front of one node. */
describe('chain client over several endpoints', () => {
  let anvil: LocalChain
  let first: RpcProxy
  let second: RpcProxy
  const connect = () =>
    connectChain([first.url, second.url], anvil.chainId, {
      timeoutMs: 300,
      rounds: 2,
      backoffMs: 20,
    })

  beforeAll(async () => {
    anvil = await startAnvil()
    first = await startRpcProxy(anvil.url)
    second = await startRpcProxy(anvil.url)
  })
  afterEach(() => {
    first?.heal()
    second?.heal()
  })
  afterAll(async () => {
    await first?.close()
    await second?.close()
    await anvil?.stop()
  })

  test('CHAIN_RPC_URLS is a comma list; CHAIN_RPC_URL is still accepted', () => {
    expect(rpcUrlsOf({ CHAIN_RPC_URLS: ' https://a.example/k1, https://b.example ' })).toEqual([
      'https://a.example/k1',
      'https://b.example',
    ])
    expect(rpcUrlsOf({ CHAIN_RPC_URL: 'https://a.example' })).toEqual(['https://a.example'])
    expect(rpcUrlsOf({})).toEqual([])
    // A label never carries the provider's key.
    expect(endpointLabel('https://eth.example.com/v2/SECRET?key=x', 1)).toBe('1:eth.example.com')
  })

  test('an endpoint answering 500, 429, an internal error or nothing fails over to the next', async () => {
    for (const fault of ['http_500', 'http_429', 'rpc_error', 'hang'] as const) {
      const chain = connect()
      first.fail('*', fault)
      const head = await chain.client.getBlockNumber()
      expect(head, fault).toBeGreaterThanOrEqual(0n)
      first.heal()
      const [a, b] = chain.endpoints.stats()
      expect(a!.errors, fault).toBeGreaterThan(0)
      expect(b!.calls - b!.errors, fault).toBeGreaterThan(0)
    }
  })

  test('the failing endpoint is ranked last, so later calls go to the healthy one first', async () => {
    const chain = connect()
    first.fail('*', 'http_500')
    await chain.client.getBlockNumber()
    const before = first.called()
    for (let i = 0; i < 5; i++) await chain.client.getBlockNumber()
    expect(first.called()).toBe(before)
  })

  test('retries are bounded: every endpoint failing throws after the rounds', async () => {
    const chain = connect()
    first.fail('*', 'http_429')
    second.fail('*', 'http_429')
    const before = first.called() + second.called()
    await expect(chain.client.getBlockNumber()).rejects.toThrow()
    expect(first.called() + second.called() - before).toBe(4)
  })

  test('a block one endpoint lacks (it lags) is asked of the other before null is believed', async () => {
    const chain = connect()
    first.fail('eth_getBlockByNumber', 'null')
    const block = await blockOrNull(chain.client, 0n)
    expect(block?.number).toBe(0n)
    second.fail('eth_getBlockByNumber', 'null')
    expect(await blockOrNull(chain.client, 0n)).toBeNull()
  })

  test("a node's deliberate refusal is not retried elsewhere", async () => {
    expect(isTransientFailure(Object.assign(new Error('execution reverted'), { code: 3 }))).toBe(
      false,
    )
    const chain = connect()
    const before = first.called() + second.called()
    await expect(
      chain.client.request({
        method: 'eth_getBlockByNumber',
        params: ['nonsense' as never, false],
      }),
    ).rejects.toThrow()
    expect(first.called() + second.called() - before).toBe(1)
  })

  test('each endpoint has its figures: calls, errors, latency and the head it told', async () => {
    const chain = connect()
    await chain.client.getBlockNumber()
    const [a] = chain.endpoints.stats()
    expect(a).toMatchObject({ endpoint: expect.stringMatching(/^0:127\.0\.0\.1:/), errors: 0 })
    expect(a!.calls).toBeGreaterThan(0)
    expect(a!.seconds).toBeGreaterThan(0)
    expect(a!.head).toBe(await chain.client.getBlockNumber())
    expect(chain.endpoints.bestHead()).toBe(a!.head)
  })

  test('the start refuses an endpoint of another chain than CHAIN_ID, naming both ids; a silent one is only failed over', async () => {
    await expect(connectExternalChain([first.url], 56)).rejects.toThrow(
      /answers chain id 31337, but CHAIN_ID says 56/,
    )
    first.fail('*', 'http_500')
    const chain = await connectExternalChain([first.url, second.url], anvil.chainId, {
      timeoutMs: 300,
      backoffMs: 10,
    })
    expect(chain.chainId).toBe(anvil.chainId)
    second.fail('*', 'http_500')
    await expect(connectExternalChain([first.url, second.url])).rejects.toThrow(
      /No chain endpoint of CHAIN_RPC_URLS answered/,
    )
  })
})
