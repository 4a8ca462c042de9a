import type { Socket } from 'node:net'
import { langFromHeader, reasonMessage, REASON_CODES } from '@hope/api'
import type { ConnectionError } from 'fastify'

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
      const body = JSON.stringify({
        code: REASON_CODES.invalid_params,
        msg: reasonMessage('invalid_params', langFromHeader(lan)),
        reason: 'invalid_params',
        data: null,
      })
      socket.write(
        'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\n` +
          `Connection: close\r\n\r\n${body}`,
      )
    }
  }
  socket.destroy()
}
