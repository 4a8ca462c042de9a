/**
 * The event poster, composed on a canvas in the browser: the brand, the headline, the user's
 * QR code and invitation code. Sized for a phone screen at 2× (750 × 1334).
 */
export interface PosterContent {
  /** The invitation link the QR code carries. */
  link: string
  code: string
  nickName: string
  headline: string
  slogan: string
  scan: string
  codeLabel: string
}

export const POSTER_WIDTH = 750
export const POSTER_HEIGHT = 1334
const QR_SIZE = 300

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image()
    image.onload = () => resolve(image)
    image.onerror = () => reject(new Error('image failed to load'))
    image.src = src
  })
}

function roundedRect(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  r: number,
) {
  ctx.beginPath()
  ctx.moveTo(x + r, y)
  ctx.arcTo(x + w, y, x + w, y + h, r)
  ctx.arcTo(x + w, y + h, x, y + h, r)
  ctx.arcTo(x, y + h, x, y, r)
  ctx.arcTo(x, y, x + w, y, r)
  ctx.closePath()
}

/** Wraps `text` into lines no wider than `width` (CJK breaks anywhere, other scripts at spaces). */
export function wrapText(measure: (text: string) => number, text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  const tokens =
    text.match(
      /[\u2E80-\u9FFF\uAC00-\uD7AF\u3040-\u30FF]|[^\s\u2E80-\u9FFF\uAC00-\uD7AF\u3040-\u30FF]+|\s+/g,
    ) ?? []
  for (const token of tokens) {
    const next = line + token
    if (line && measure(next.trimEnd()) > width) {
      lines.push(line.trimEnd())
      line = token.trimStart()
    } else line = next
  }
  if (line.trim()) lines.push(line.trimEnd())
  return lines
}

/** Draws the poster and resolves it as a PNG data URL. */
export async function composePoster(content: PosterContent): Promise<string> {
  const { toDataURL } = await import('qrcode')
  const qr = await loadImage(
    await toDataURL(content.link, { margin: 1, width: QR_SIZE, errorCorrectionLevel: 'M' }),
  )
  const canvas = document.createElement('canvas')
  canvas.width = POSTER_WIDTH
  canvas.height = POSTER_HEIGHT
  const ctx = canvas.getContext('2d')
  if (!ctx) throw new Error('canvas unavailable')
  const font = (weight: number, size: number) =>
    `${weight} ${size}px -apple-system, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif`

  const background = ctx.createLinearGradient(0, 0, POSTER_WIDTH, POSTER_HEIGHT)
  background.addColorStop(0, '#4b5bff')
  background.addColorStop(0.55, '#3a2fd6')
  background.addColorStop(1, '#1d1a6e')
  ctx.fillStyle = background
  ctx.fillRect(0, 0, POSTER_WIDTH, POSTER_HEIGHT)
  const glow = ctx.createRadialGradient(640, 120, 10, 640, 120, 420)
  glow.addColorStop(0, 'rgba(155, 110, 255, 0.7)')
  glow.addColorStop(1, 'rgba(155, 110, 255, 0)')
  ctx.fillStyle = glow
  ctx.fillRect(0, 0, POSTER_WIDTH, POSTER_HEIGHT)

  ctx.fillStyle = '#ffffff'
  ctx.textAlign = 'left'
  ctx.textBaseline = 'alphabetic'
  ctx.font = font(800, 56)
  ctx.fillText('HOPE', 64, 140)

  ctx.font = font(800, 64)
  let y = 300
  for (const line of wrapText((t) => ctx.measureText(t).width, content.headline, 622)) {
    ctx.fillText(line, 64, y)
    y += 84
  }
  ctx.font = font(400, 32)
  ctx.fillStyle = 'rgba(255, 255, 255, 0.82)'
  for (const line of wrapText((t) => ctx.measureText(t).width, content.slogan, 622)) {
    ctx.fillText(line, 64, y + 10)
    y += 48
  }

  const cardY = 760
  ctx.fillStyle = '#ffffff'
  roundedRect(ctx, 48, cardY, POSTER_WIDTH - 96, 480, 32)
  ctx.fill()
  ctx.drawImage(qr, 80, cardY + 90, QR_SIZE, QR_SIZE)
  // The card's lines, right of the QR code: colour, weight, size, text, baseline.
  const cardLines = [
    ['#1b1d2a', 700, 34, content.scan, cardY + 150],
    ['#6b6f85', 400, 28, content.codeLabel, cardY + 230],
    ['#4b5bff', 800, 44, content.code, cardY + 286],
    ['#6b6f85', 400, 26, content.nickName, cardY + 350],
  ] as const
  for (const [color, weight, size, text, baseline] of cardLines) {
    ctx.fillStyle = color
    ctx.font = font(weight, size)
    ctx.fillText(text, 412, baseline)
  }
  return canvas.toDataURL('image/png')
}
