import type { Socket } from 'node:net'
import { langFromHeader, reasonMessage, REASON_CODES } from '@hope/api'
import type { ConnectionError, FastifyReply, FastifyRequest } from 'fastify'
import { COMMON_SECURITY_HEADERS, contentSecurityPolicy } from '../plugins/web.ts'

/** The headers of every answer, for answers sent outside Fastify's hooks. */
export function securityHeaders(): Record<string, string> {
  return {
    ...COMMON_SECURITY_HEADERS,
    'content-security-policy': contentSecurityPolicy(),
    'cache-control': 'no-store',
  }
}

function invalidParamsBody(lan: unknown, requestId?: string): string {
  return JSON.stringify({
    code: REASON_CODES.invalid_params,
    msg: reasonMessage('invalid_params', langFromHeader(lan)),
    reason: 'invalid_params',
    data: null,
    ...(requestId ? { requestId } : {}),
  })
}

/**
 * Answers what Fastify refuses before routing (a malformed URL such as `/api/%c0%ae`, a path
 * parameter too long) in the envelope of any other bad input, with the production headers.
 */
export function answerFrameworkError(_err: Error, req: FastifyRequest, reply: FastifyReply): void {
  void reply
    .status(400)
    .headers(securityHeaders())
    .header('x-request-id', req.id)
    .type('application/json; charset=utf-8')
    .send(invalidParamsBody(req.headers.lan, req.id))
}

/**
 * Answers a request Node's HTTP parser refuses before Fastify sees it (a head over
 * `maxHeaderSize`, such as a query string of 100k characters, or a malformed request line):
 * the envelope of any other bad input, `msg` in the `lan` language when the refused head shows
 * one, else the default language. A timeout gets a bare 408; a reset connection nothing.
 */
export function answerClientError(err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  if (socket.writable) {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.write('HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
    } else {
      const raw: unknown = err.rawPacket
      const head = Buffer.isBuffer(raw) ? raw.toString('latin1') : ''
      const lan = /\r\nlan:[ \t]*([A-Za-z_]{2,8})/i.exec(head)?.[1]
      const body = invalidParamsBody(lan)
      const headers = Object.entries(securityHeaders())
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')
      socket.write(
        'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n${headers}` +
          `Connection: close\r\n\r\n${body}`,
      )
    }
  }
  socket.destroy()
}
