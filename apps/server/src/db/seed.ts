import type pg from 'pg'
import { seedDemoContent } from '../modules/content/content.seed.ts'
import { seedDemoPrices } from '../modules/quotes/quotes.service.ts'

/** The demo root user: Anvil's first dev account, so a local wallet can act as it. */
export const DEMO_ROOT = {
  userName: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  nickName: 'HOPE',
  referralCode: 'HOPE2026',
} as const

/**
 * Idempotent demo content for the embedded default: the root user, banners, news and business
 * school items (their pictures and video are stored in `uploadsDir` when given).
 */
export async function seedDemo(pool: pg.Pool, opts: { uploadsDir?: string } = {}): Promise<void> {
  await pool.query(
    `INSERT INTO users (user_name, nick_name, referral_code, level, location)
     VALUES ($1, $2, $3, 0, 1) ON CONFLICT (user_name) DO NOTHING`,
    [DEMO_ROOT.userName, DEMO_ROOT.nickName, DEMO_ROOT.referralCode],
  )
  await seedDemoContent(pool, opts.uploadsDir)
  await seedDemoPrices(pool)
}
