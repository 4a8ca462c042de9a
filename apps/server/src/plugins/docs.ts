import { REASON_CODES, ROUTES, type RoutePath } from '@hope/api'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'

/** OpenAPI 3.1 generated from the contract: every route is a POST with query parameters. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, unknown> = {}
  for (const [p, def] of Object.entries(ROUTES) as [RoutePath, (typeof ROUTES)[RoutePath]][]) {
    const schema = z.toJSONSchema(def.params, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, unknown>
      required?: string[]
    }
    const parameters = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
      name,
      in: 'query',
      required: schema.required?.includes(name) ?? false,
      schema: s,
    }))
    if (def.auth)
      parameters.push({ name: 'token', in: 'header', required: true, schema: { type: 'string' } })
    parameters.push({
      name: 'lan',
      in: 'header',
      required: false,
      schema: { type: 'string', enum: ['zh_CN', 'en_US', 'ko_KR', 'ja_JP', 'th_TH', 'vi_VN'] },
    })
    paths[`/api/${p}`] = {
      post: {
        summary: def.summary,
        parameters,
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
        responses: {
          '200': { description: 'Envelope { code: 200, msg, data }' },
          default: { description: 'Envelope { code, msg, reason, data: null }' },
        },
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'HOPE API', version: '1' },
    paths,
    'x-reasons': REASON_CODES,
  }
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

function renderDocsPage(doc: ReturnType<typeof buildOpenApi>): string {
  const rows = Object.entries(
    doc.paths as Record<
      string,
      { post: { summary: string; parameters: { name: string; in: string; required: boolean }[] } }
    >,
  )
    .map(([p, { post }]) => {
      const params = post.parameters
        .map(
          (x) => `<code>${escape(x.name)}</code>${x.required ? '*' : ''} <small>(${x.in})</small>`,
        )
        .join('<br>')
      return `<tr><td><code>POST ${escape(p)}</code></td><td>${escape(post.summary)}</td><td>${params}</td></tr>`
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
Headers: <code>lan</code> (default zh_CN) and <code>token</code> when signed in. Body: <code>{ code, msg, data }</code>; success only when the HTTP status and <code>code</code> are both 200; failures add a stable <code>reason</code>.
Machine-readable: <a href="/api/docs/json">/api/docs/json</a>.</p>
<table><tr><th>Route</th><th>What it does</th><th>Parameters (* required)</th></tr>${rows}</table>
<h2>Error reasons</h2><table><tr><th>reason</th><th>code</th></tr>${reasons}</table></body></html>`
}

export function registerDocs(app: FastifyInstance): void {
  const doc = buildOpenApi()
  const page = renderDocsPage(doc)
  app.get('/api/docs/json', async () => doc)
  app.get('/api/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').send(page))
}
