import { pino, type Logger } from 'pino'
import pinoPretty from 'pino-pretty'

/**
 * The logger of a process's own lines outside the app (the start, a cluster's primary, the
 * signer): pino like the app's, so every line of the output is JSON with `level`, `time`, `pid`
 * and `process` (e.g. `{"level":30,"time":…,"pid":…,"process":"primary","msg":"2 workers on port 8080"}`),
 * or pretty where the app's are (LOG_FORMAT, or a terminal). LOG_LEVEL applies as to the app.
 * Messages never carry a secret: callers redact URLs as they do for the app's lines.
 * @example processLog('signer').info({ port }, 'listening')
 */
export function processLog(name: 'server' | 'primary' | 'signer', env = process.env): Logger {
  const format =
    env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty'
      ? env.LOG_FORMAT
      : process.stdout.isTTY
        ? 'pretty'
        : 'json'
  const options = { level: env.LOG_LEVEL ?? 'info', base: { pid: process.pid, process: name } }
  return format === 'pretty'
    ? pino(
        options,
        pinoPretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }),
      )
    : pino(options)
}
