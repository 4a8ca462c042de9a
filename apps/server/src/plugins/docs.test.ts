import { ROUTES, type RoutePath } from '@hope/api'
import { describe, expect, test } from 'vitest'
import { buildOpenApi } from './docs.ts'

interface Operation {
  operationId: string
  security: Record<string, string[]>[]
  parameters: { name: string; in: string }[]
  responses: Record<string, unknown>
}

const doc = buildOpenApi() as {
  servers: { url: string }[]
  paths: Record<string, { post: Operation }>
  components: {
    securitySchemes: Record<string, { type: string; in: string; name: string }>
    schemas: Record<string, { required: string[] }>
  }
}
const operations = Object.entries(doc.paths).map(([p, { post }]) => ({
  path: p.replace(/^\/api\//, '') as RoutePath,
  op: post,
}))

describe('OpenAPI document', () => {
  test('names a server and declares the token header once per kind of session', () => {
    expect(doc.servers).toEqual([{ url: '/' }])
    const schemes = doc.components.securitySchemes
    expect(schemes.userToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'token' })
    expect(schemes.operatorToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'token' })
    for (const { op } of operations)
      expect(op.parameters.some((p) => p.name === 'token')).toBe(false)
  })

  test('applies the user scheme, the operator scheme with its roles, or none, as the contract says', () => {
    for (const { path, op } of operations) {
      const def = ROUTES[path]
      if (def.auth === 'operator')
        expect(op.security).toEqual([{ operatorToken: [...(('roles' in def && def.roles) || [])] }])
      else if (def.auth) expect(op.security).toEqual([{ userToken: [] }])
      else expect(op.security).toEqual([])
    }
  })

  test('gives every operation a unique, URL-safe id made from its route', () => {
    const ids = operations.map(({ op }) => op.operationId)
    expect(new Set(ids).size).toBe(Object.keys(ROUTES).length)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_]+$/)
    expect(doc.paths['/api/user/logining']!.post.operationId).toBe('user_logining')
  })

  test('documents the error envelope and the error answers each kind of route gives', () => {
    expect(doc.components.schemas.Error!.required).toEqual(['code', 'msg', 'reason', 'data'])
    const codes = (path: RoutePath) =>
      Object.keys(doc.paths[`/api/${path}`]!.post.responses).filter((c) => c !== 'default')
    for (const { op } of operations)
      expect(Object.keys(op.responses).some((c) => c.startsWith('4'))).toBe(true)
    expect(codes('main/getETLDPrice')).toEqual(['200', '400', '500', '503'])
    expect(codes('user/getUserInfo')).toEqual(['200', '400', '401', '500', '503'])
    expect(codes('user/logining')).toEqual(['200', '400', '401', '429', '500', '503'])
    expect(codes('admin/settings')).toEqual(['200', '400', '401', '403', '500', '503'])
  })
})
