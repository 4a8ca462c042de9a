import type pg from 'pg'

/** The demo root user: Anvil's first dev account, so a local wallet can act as it. */
export const DEMO_ROOT = {
  userName: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  nickName: 'HOPE',
  referralCode: 'HOPE2026',
} as const

/** Idempotent demo content for the embedded default: the root user and one news item. */
export async function seedDemo(pool: pg.Pool): Promise<void> {
  await pool.query(
    `INSERT INTO users (user_name, nick_name, referral_code, level, location)
     VALUES ($1, $2, $3, 0, 1) ON CONFLICT (user_name) DO NOTHING`,
    [DEMO_ROOT.userName, DEMO_ROOT.nickName, DEMO_ROOT.referralCode],
  )
  await pool.query(
    `INSERT INTO news (type, title, summary, content)
     SELECT 1, $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM news)`,
    [
      'HOPE 社区正式上线',
      '连接钱包、签名登录，邀请好友共建 HOPE 社区。',
      'HOPE 应用现已开放：使用浏览器钱包连接并签名即可登录，无需密码。通过邀请链接或邀请码注册，加入共识与社区系统。支持中文、English、한국어、日本語、ไทย、Tiếng Việt 六种语言。',
    ],
  )
}
