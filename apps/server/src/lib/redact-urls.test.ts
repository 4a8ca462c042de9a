import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { redactUrls } from './redact-urls.ts'

describe('redactUrls', () => {
  const rpc = 'https://mainnet.rpc.example/v3/9f2c4e7a1b3d5f60'
  const db = 'postgres://hope:s3cret-pass@db.internal:5432/hope'

  test('replaces a key in the path and a password wherever they appear', () => {
    const redact = redactUrls([rpc, db])
    const err = {
      message: `HTTP request failed.\n\nURL: ${rpc}\nRequest body: {"method":"eth_blockNumber"}`,
      url: rpc,
      details: ['fetch failed', { cause: `connect to ${db} refused` }],
      stack: `Error: key 9f2c4e7a1b3d5f60 rejected\n    at ${rpc}/`,
    }
    const out = JSON.stringify(redact(err))
    expect(out).not.toContain('9f2c4e7a1b3d5f60')
    expect(out).not.toContain('s3cret-pass')
    expect(out).toContain('https://mainnet.rpc.example/[redacted]')
    expect(out).toContain('fetch failed')
  })

  test('leaves values alone when no URL holds a credential', () => {
    const redact = redactUrls([undefined, 'http://127.0.0.1:8545', 'not a url'])
    const value = { message: 'URL: http://127.0.0.1:8545', n: 3 }
    expect(redact(value)).toBe(value)
  })

  test('no configured key survives in any text that contains it', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/),
        fc.string(),
        fc.string(),
        (key, before, after) => {
          const url = `https://rpc.example/v2/${key}`
          const out = redactUrls([url])({ message: `${before}${url}${after}` })
          return !out.message.includes(url)
        },
      ),
    )
  })
})
