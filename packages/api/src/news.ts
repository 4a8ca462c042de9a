import { z } from 'zod'
import { PageParams } from './common.ts'

export const NewsParams = PageParams.extend({
  type: z
    .string()
    .regex(/^\d{1,3}$/)
    .transform(Number)
    .optional(),
})
export type NewsParams = z.input<typeof NewsParams>

export interface NewsItem {
  id: number
  type: number
  title: string
  summary: string
  content: string
  image: string
  publishedAt: string
}
