import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { uploadUrl, type UploadedImage } from '@hope/api'
import type pg from 'pg'
import { AppError } from '../../lib/app-error.ts'
import { recordAudit } from '../audit/audit.service.ts'
import { SOURCE_DIR } from '../../paths.ts'
import { checkImage, variantPlan } from './upload.rules.ts'
import type { ResizeJob } from './upload.worker.ts'

/** Where uploads live: `<DATA_DIR>/uploads`, beside the embedded database and chain. */
export const uploadsDirOf = (dataDir: string) => path.join(dataDir, 'uploads')

const RESIZE_TIMEOUT_MS = 30_000
/** The resize worker's source (Node strips its types), the same file under the bundle too. */
const WORKER = path.join(SOURCE_DIR, 'modules/upload/upload.worker.ts')

/** Runs the resize in a worker thread; rejects with image_type_invalid when it cannot decode. */
function resizeInWorker(job: ResizeJob): Promise<Uint8Array[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: job })
    const timer = setTimeout(() => {
      void worker.terminate()
      reject(new AppError('image_type_invalid', { detail: 'decode timed out' }))
    }, RESIZE_TIMEOUT_MS)
    worker.once('message', (copies: Uint8Array[]) => {
      clearTimeout(timer)
      resolve(copies)
    })
    worker.once('error', (cause) => {
      clearTimeout(timer)
      reject(new AppError('image_type_invalid', { cause }))
    })
    worker.once('exit', (code) => {
      clearTimeout(timer)
      if (code !== 0) reject(new AppError('image_type_invalid', { detail: `exit ${code}` }))
    })
  })
}

/** Writes a file once: content-addressed names never change, so an existing one is kept. */
export async function writeOnce(dir: string, name: string, bytes: Uint8Array): Promise<void> {
  const target = path.join(dir, name)
  try {
    await fs.access(target)
    return
  } catch {
    // not there yet
  }
  const temp = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`)
  await fs.writeFile(temp, bytes)
  await fs.rename(temp, target)
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * Operators' images: checked by their own bytes, stored under their sha-256 with 375w and 750w
 * copies (PNG, JPEG), served at `/uploads/…` forever (a new image is a new name). Audited.
 */
export function createUploadService(deps: { pool: pg.Pool; dir: string }) {
  const { pool, dir } = deps
  return {
    dir,

    async store(operatorId: number, body: unknown, declaredType: string | undefined) {
      const image = checkImage(body, declaredType)
      const bytes = body as Uint8Array
      const hash = sha256Hex(bytes)
      const plan = variantPlan(image.type, image.width)
      const resized = plan.filter((v) => v.resize).map((v) => v.width)
      // PNG and JPEG are decoded even when no copy needs resizing: a damaged file is refused.
      const copies =
        image.type === 'image/webp'
          ? []
          : await resizeInWorker({ bytes, type: image.type, widths: resized })

      await fs.mkdir(dir, { recursive: true })
      await writeOnce(dir, path.basename(uploadUrl(hash, image.ext)), bytes)
      const variants: UploadedImage['variants'] = []
      for (const v of plan) {
        const url = uploadUrl(hash, image.ext, v.width)
        const data = v.resize ? copies[resized.indexOf(v.width)]! : bytes
        await writeOnce(dir, path.basename(url), data)
        variants.push({ width: v.width, url })
      }
      const stored: UploadedImage = {
        url: uploadUrl(hash, image.ext),
        type: image.type,
        width: image.width,
        height: image.height,
        bytes: bytes.length,
        variants,
      }
      await recordAudit(pool, {
        operatorId,
        action: 'image_upload',
        targetUserId: null,
        reason: '',
        before: null,
        after: stored,
      })
      return stored
    },
  }
}

export type UploadService = ReturnType<typeof createUploadService>
