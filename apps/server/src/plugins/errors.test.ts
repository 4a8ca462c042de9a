import { reasonMessage } from '@hope/api'
import Fastify from 'fastify'
import { Writable } from 'node:stream'
import { describe, expect, test } from 'vitest'
import { registerErrorHandling } from './errors.ts'

/** An app whose one route throws `err`, with its log lines kept. */
async function failingWith(err: Error) {
  const lines: string[] = []
  const app = Fastify({
    logger: {
      level: 'warn',
      stream: new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk))
          done()
        },
      }),
    },
  })
  app.addHook('onRequest', async (req) => {
    req.lang = 'en'
  })
  registerErrorHandling(app)
  app.post('/api/fail', async () => {
    throw err
  })
  const res = await app.inject({ method: 'POST', url: '/api/fail' })
  await app.close()
  return { status: res.statusCode, headers: res.headers, body: res.json(), log: lines.join('') }
}

/** A wrapper whose message quotes the query and the parameters: never logged. */
const failedQuery = (cause: Error) =>
  new Error('Failed query: select * from sessions where token_hash = $1\nparams: secret-hash', {
    cause,
  })

describe('errors', () => {
  test.each([
    ['a lost connection', failedQuery(new Error('Connection terminated unexpectedly'))],
    [
      'no free connection in time',
      new Error('Connection terminated due to connection timeout', {
        cause: new Error('Connection terminated unexpectedly'),
      }),
    ],
    [
      'a server shutting down',
      failedQuery(Object.assign(new Error('terminating'), { code: '57P01' })),
    ],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    ],
    [
      'a Unix socket whose server is down',
      Object.assign(new Error('connect ENOENT /tmp/.s.PGSQL.5432'), {
        code: 'ENOENT',
        syscall: 'connect',
      }),
    ],
    [
      'a statement past its time',
      failedQuery(
        Object.assign(new Error('canceling statement due to statement timeout'), {
          code: '57014',
        }),
      ),
    ],
    [
      'a lock waited for too long',
      failedQuery(
        Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }),
      ),
    ],
    [
      'a transaction left idle',
      Object.assign(new Error('terminating connection due to idle-in-transaction timeout'), {
        code: '25P03',
      }),
    ],
  ])('%s answers 503 with a translated message, logged without the query', async (_, err) => {
    const res = await failingWith(err)
    expect(res.status).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    expect(res.body).toEqual({
      code: 503,
      msg: reasonMessage('service_unavailable', 'en'),
      reason: 'service_unavailable',
      data: null,
      requestId: expect.any(String),
    })
    expect(res.log).toContain('service unavailable')
    expect(res.log).not.toContain('secret-hash')
  })

  test('a missing file is not an outage', async () => {
    const err = Object.assign(new Error("ENOENT: no such file or directory, open 'x.png'"), {
      code: 'ENOENT',
      syscall: 'open',
    })
    const res = await failingWith(err)
    expect(res.status).toBe(500)
    expect(res.body.reason).toBe('internal_error')
  })

  test('words in a failed query’s parameters do not make it a 503', async () => {
    const err = new Error('Failed query: insert into chat\nparams: connection terminated', {
      cause: Object.assign(new Error('duplicate key'), { code: '23505' }),
    })
    const res = await failingWith(err)
    expect(res.status).toBe(500)
    expect(res.body.reason).toBe('internal_error')
  })

  test('a failed query is logged with the driver’s words, never its parameters', async () => {
    const err = failedQuery(
      Object.assign(new Error('value too long for type character varying(64)'), { code: '22001' }),
    )
    const res = await failingWith(err)
    expect(res.status).toBe(500)
    expect(res.log).toContain('request failed')
    expect(res.log).toContain('value too long')
    expect(res.log).not.toContain('secret-hash')
    expect(res.log).not.toContain('Failed query')
  })
})

describe('a sum past what a column holds', () => {
  test('is a 400 amount_too_large with nothing logged as a failure, not a 500', async () => {
    const overflow = failedQuery(
      Object.assign(new Error('numeric field overflow'), { code: '22003' }),
    )
    const { status, body, log } = await failingWith(overflow)
    expect(status).toBe(400)
    expect(body).toMatchObject({ code: 400, reason: 'amount_too_large' })
    expect(body.msg).toBe(reasonMessage('amount_too_large', 'en'))
    expect(log).not.toContain('secret-hash')
  })
})
