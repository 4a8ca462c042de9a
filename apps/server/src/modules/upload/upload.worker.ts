// Decodes an uploaded PNG or JPEG and encodes its resized copies, off the main thread: a large
// JPEG takes about a second to decode in JavaScript, and the API must keep answering meanwhile.
import { parentPort, workerData } from 'node:worker_threads'
import { Jimp } from 'jimp'

export interface ResizeJob {
  bytes: Uint8Array
  type: 'image/png' | 'image/jpeg'
  widths: number[]
}

const JPEG_QUALITY = 82

const job = workerData as ResizeJob
const image = await Jimp.fromBuffer(Buffer.from(job.bytes))
const copies: Uint8Array[] = []
for (const w of job.widths) {
  const copy = image.clone().resize({ w })
  copies.push(
    job.type === 'image/jpeg'
      ? await copy.getBuffer('image/jpeg', { quality: JPEG_QUALITY })
      : await copy.getBuffer('image/png'),
  )
}
parentPort!.postMessage(copies)
