import fastifyStatic from '@fastify/static'
import { ROUTES, UPLOAD_FILE_NAME, UPLOAD_MAX_BYTES, UPLOAD_TYPES } from '@hope/api'
import type { FastifyError, FastifyInstance } from 'fastify'
import { AppError } from '../../lib/app-error.ts'
import { defineRoute } from '../../plugins/routes.ts'

/** Stored names never change their bytes: a year, immutable. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** `admin/upload`: the one route whose payload is a body, the raw image bytes. */
async function uploadRoute(app: FastifyInstance): Promise<void> {
  const { uploads, operators } = app.services
  app.addContentTypeParser(
    Object.keys(UPLOAD_TYPES),
    { parseAs: 'buffer', bodyLimit: UPLOAD_MAX_BYTES },
    (_req, body, done) => done(null, body),
  )
  // Signed in before the body is read, so an unknown caller never gets to send megabytes.
  app.addHook('onRequest', async (req) => {
    await operators.authenticate(req.headers.token, ROUTES['admin/upload'].roles)
  })
  // The body parser's refusals, in the upload's own words; everything else goes on as it was.
  app.setErrorHandler((err: FastifyError) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new AppError('image_too_large')
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_EMPTY_TYPE')
      throw new AppError('image_type_invalid')
    throw err
  })
  defineRoute(app, 'admin/upload', ({ operator, req }) =>
    uploads.store(operator!.id, req.body, req.headers['content-type']),
  )
}

/** Stored images at `/uploads/<hash>[-<width>w].<ext>`; any other name is not found. */
async function uploadFiles(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, {
    root: app.services.uploads.dir,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    suppressWarning: true,
    allowedPath: (pathName) => UPLOAD_FILE_NAME.test(pathName.replace(/^\//, '')),
    setHeaders(res) {
      res.header('cache-control', IMMUTABLE)
    },
  })
}

export async function uploadRoutes(app: FastifyInstance): Promise<void> {
  await app.register(uploadRoute)
  await app.register(uploadFiles)
}
