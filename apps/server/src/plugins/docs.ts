import { LAN_HEADER, REASON_CODES, ROUTES, type RoutePath } from '@hope/api'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'

type RouteDef = (typeof ROUTES)[RoutePath]

/** Routes that count attempts and answer 429 `rate_limited` past their limit. */
const RATE_LIMITED: readonly RoutePath[] = [
  'user/register',
  'user/logining',
  'admin/login',
  'chat/send',
  'admin/chatReply',
]

/** Routes that check a signature or a password themselves and answer 401 when it fails. */
const SIGN_IN: readonly RoutePath[] = ['user/register', 'user/logining', 'admin/login']

/** The error answers each operation may document, by envelope code. */
const ERROR_RESPONSES = {
  '400': { name: 'BadRequest', what: 'Invalid parameters or body' },
  '401': { name: 'Unauthorized', what: 'No valid session, or a refused signature or password' },
  '403': { name: 'Forbidden', what: 'The operator’s role is not allowed on this route' },
  '429': { name: 'TooManyRequests', what: 'Too many attempts; Retry-After gives the seconds left' },
  '500': { name: 'InternalError', what: 'An unexpected failure (logged, never detailed)' },
  '503': { name: 'ServiceUnavailable', what: 'The database or the chain node is unavailable' },
} as const
type ErrorCode = keyof typeof ERROR_RESPONSES

const reasonsWithCode = (code: number) =>
  Object.entries(REASON_CODES)
    .filter(([, c]) => c === code)
    .map(([r]) => r)

/** `user/logining` → `user_logining`: unique because route keys are, and URL-safe. */
const operationIdOf = (path: RoutePath): string => path.replace(/\//g, '_')

function errorCodesOf(path: RoutePath, def: RouteDef): ErrorCode[] {
  const codes: ErrorCode[] = ['400']
  if (def.auth || SIGN_IN.includes(path)) codes.push('401')
  if (def.auth === 'operator') codes.push('403')
  if (RATE_LIMITED.includes(path)) codes.push('429')
  codes.push('500', '503')
  return codes
}

const rolesOf = (def: RouteDef): readonly string[] => ('roles' in def && def.roles) || []

function securityOf(def: RouteDef): Record<string, string[]>[] {
  if (def.auth === 'operator') return [{ operatorToken: [...rolesOf(def)] }]
  if (def.auth) return [{ userToken: [] }]
  return []
}

function queryParameters(def: RouteDef) {
  const schema = z.toJSONSchema(def.params, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>
    required?: string[]
  }
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: s,
  }))
}

/** The `lan` header, on every operation. */
const LAN_PARAMETER = {
  name: 'lan',
  in: 'header',
  required: false,
  description: 'The language of `msg`; an unknown value falls back to zh_CN.',
  schema: { type: 'string', enum: Object.values(LAN_HEADER), default: 'zh_CN' },
}

function buildComponents() {
  const allCodes = [...new Set<number>(Object.values(REASON_CODES))].sort((a, b) => a - b)
  return {
    securitySchemes: {
      userToken: {
        type: 'apiKey',
        in: 'header',
        name: 'token',
        description: 'A user’s session token, as `user/logining` or `user/register` answer it.',
      },
      operatorToken: {
        type: 'apiKey',
        in: 'header',
        name: 'token',
        description:
          'The same `token` header carrying an operator’s session token from `admin/login`; ' +
          'the requirement lists the operator roles the route admits (403 `forbidden` otherwise).',
      },
    },
    schemas: {
      Success: {
        type: 'object',
        description: 'Success only when the HTTP status and `code` are both 200.',
        required: ['code', 'msg', 'data'],
        properties: {
          code: { type: 'integer', const: 200 },
          msg: { type: 'string' },
          data: { description: 'The route’s answer (see the contract in packages/api).' },
        },
      },
      Error: {
        type: 'object',
        description:
          'Every failure, whatever its HTTP status; `x-reasons` maps each reason to its code.',
        required: ['code', 'msg', 'reason', 'data'],
        properties: {
          code: { type: 'integer', enum: allCodes },
          msg: { type: 'string', description: 'Translated into the `lan` language.' },
          reason: { type: 'string', enum: Object.keys(REASON_CODES) },
          data: { type: 'null' },
          requestId: {
            type: 'string',
            description:
              'The request’s id, also in the `x-request-id` header and on every log line of the request.',
          },
        },
      },
    },
    responses: Object.fromEntries(
      Object.entries(ERROR_RESPONSES).map(([code, { name, what }]) => [
        name,
        {
          description: `${what}. Reasons: ${reasonsWithCode(Number(code)).join(', ')}.`,
          ...(code === '429'
            ? {
                headers: {
                  'Retry-After': {
                    description: 'Seconds to wait before trying again.',
                    schema: { type: 'integer' },
                  },
                },
              }
            : {}),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      ]),
    ),
  }
}

/** OpenAPI 3.1 generated from the contract: every route is a POST with query parameters. */
export function buildOpenApi(): Record<string, unknown> {
  const components = buildComponents()
  const ruleFailures = [...new Set<number>(Object.values(REASON_CODES))]
    .filter((c) => !(String(c) in ERROR_RESPONSES))
    .map((c) => `${c} (${reasonsWithCode(c).join(', ')})`)
    .join('; ')
  const paths: Record<string, unknown> = {}
  for (const [p, def] of Object.entries(ROUTES) as [RoutePath, RouteDef][]) {
    const responses: Record<string, unknown> = {
      '200': {
        description: 'Envelope { code: 200, msg, data }',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Success' } } },
      },
    }
    for (const code of errorCodesOf(p, def))
      responses[code] = { $ref: `#/components/responses/${ERROR_RESPONSES[code].name}` }
    // The route's own rules refuse with other codes; each answer names its reason.
    responses.default = {
      description: `Where the route's own rules refuse the call: ${ruleFailures}.`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    }
    paths[`/api/${p}`] = {
      post: {
        operationId: operationIdOf(p),
        summary: def.summary,
        security: securityOf(def),
        parameters: [...queryParameters(def), LAN_PARAMETER],
        ...('body' in def && def.body
          ? {
              requestBody: {
                required: true,
                content: Object.fromEntries(
                  def.body.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
                ),
              },
            }
          : {}),
        responses,
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'HOPE API',
      version: '1',
      description:
        'Every call is `POST /api/<module>/<action>` with its payload in the query string. ' +
        'Answers are the envelope `{ code, msg, data }`; failures add a stable `reason`.',
    },
    // Relative: the document describes the server that serves it, wherever it runs.
    servers: [{ url: '/' }],
    paths,
    components,
    'x-reasons': REASON_CODES,
  }
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

function signInOf(def: RouteDef): string {
  if (def.auth === 'operator') return `operator <small>(${rolesOf(def).join(', ')})</small>`
  return def.auth ? 'user' : ''
}

function renderDocsPage(): string {
  const rows = (Object.entries(ROUTES) as [RoutePath, RouteDef][])
    .map(([p, def]) => {
      const params = queryParameters(def)
        .map((x) => `<code>${escape(x.name)}</code>${x.required ? '*' : ''}`)
        .join('<br>')
      return `<tr><td><code>POST /api/${escape(p)}</code></td><td>${escape(def.summary)}</td><td>${signInOf(def)}</td><td>${params}</td></tr>`
    })
    .join('\n')
  const reasons = Object.entries(REASON_CODES)
    .map(([r, c]) => `<tr><td><code>${r}</code></td><td>${c}</td></tr>`)
    .join('\n')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>HOPE API</title><style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:960px;padding:0 1rem;color:#1d2129}
table{border-collapse:collapse;width:100%;margin:1rem 0}td,th{border:1px solid #e5e6eb;padding:.4rem .6rem;text-align:left;vertical-align:top}
th{background:#f7f8fa}code{font-size:13px}</style></head><body>
<h1>HOPE API</h1><p>Every call is <code>POST /api/&lt;module&gt;/&lt;action&gt;</code> with its payload in the query string.
Headers: <code>lan</code> (default zh_CN) and <code>token</code> on the routes that need a user's or an operator's session. Body: <code>{ code, msg, data }</code>; success only when the HTTP status and <code>code</code> are both 200; failures add a stable <code>reason</code>.
Machine-readable: <a href="/api/docs/json">/api/docs/json</a>.</p>
<table><tr><th>Route</th><th>What it does</th><th><code>token</code> of</th><th>Query parameters (* required)</th></tr>${rows}</table>
<h2>Error reasons</h2><table><tr><th>reason</th><th>code</th></tr>${reasons}</table></body></html>`
}

/**
 * The API's documentation, built on its first request: turning every route's schema into JSON
 * Schema takes a noticeable part of a start, and no start needs it.
 */
export function registerDocs(app: FastifyInstance): void {
  let doc: ReturnType<typeof buildOpenApi> | null = null
  let page: string | null = null
  app.get('/api/docs/json', async () => (doc ??= buildOpenApi()))
  app.get('/api/docs', async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send((page ??= renderDocsPage())),
  )
}
