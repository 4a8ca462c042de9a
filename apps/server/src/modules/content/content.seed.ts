import fs from 'node:fs'
import path from 'node:path'
import { uploadUrl, type Lang, type NewsTypeCode, type SchoolKind } from '@hope/api'
import type pg from 'pg'
import { SERVER_DIR } from '../../paths.ts'
import { sha256Hex, writeOnce } from '../upload/upload.service.ts'
import { inTransaction } from '../../db/transaction.ts'

/** The demo's pictures and video, committed with the app and stored like uploads. */
const ASSETS_DIR = path.join(SERVER_DIR, 'assets/demo')

type Texts<T> = Partial<Record<Lang, T>> & { zhcn: T }

interface DemoBanner {
  file: string
  link: string
  title: Texts<string>
}

interface DemoNews {
  type: NewsTypeCode
  /** How long before the seed the article is dated, so the list has an order. */
  hoursAgo: number
  texts: Texts<{ title: string; summary: string; content: string }>
}

interface DemoSchool {
  kind: SchoolKind
  cover: string
  video?: string
  hoursAgo: number
  texts: Texts<{ title: string; summary: string; content: string }>
}

const BANNERS: DemoBanner[] = [
  {
    file: 'banner-consensus.svg',
    link: '/stake',
    title: { zhcn: '共识质押，每日释放收益', en: 'Consensus staking, released every day' },
  },
  {
    file: 'banner-invite.svg',
    link: '/share',
    title: { zhcn: '邀请好友，共建 HOPE 社区', en: 'Invite friends and build the HOPE community' },
  },
  {
    file: 'banner-school.svg',
    link: '/school',
    title: { zhcn: '商学院：三分钟读懂 HOPE', en: 'Business school: HOPE in three minutes' },
  },
]

const NEWS: DemoNews[] = [
  {
    type: 1,
    hoursAgo: 72,
    texts: {
      zhcn: {
        title: 'HOPE 社区正式上线',
        summary: '连接钱包、签名登录，邀请好友共建 HOPE 社区。',
        content:
          'HOPE 应用现已开放：使用浏览器钱包连接并签名即可登录，无需密码。通过邀请链接或邀请码注册，加入共识与社区系统。支持中文、English、한국어、日本語、ไทย、Tiếng Việt 六种语言。',
      },
      en: {
        title: 'The HOPE community is live',
        summary: 'Connect a wallet, sign in and invite friends to build the HOPE community.',
        content:
          'The HOPE app is open: connect a browser wallet and sign to log in, no password needed. Register through an invitation link or code to join the consensus and community systems. Available in 中文, English, 한국어, 日本語, ไทย and Tiếng Việt.',
      },
    },
  },
  {
    type: 1,
    hoursAgo: 26,
    texts: {
      zhcn: {
        title: '共识质押第一阶段开放',
        summary: '第一阶段价格 0.10 USDT，每阶段 1,000,000 HOPE，售完自动进入下一阶段。',
        content:
          '共识质押第一阶段现已开放。用户以 USDT 按实时价格购买 HOPE 参与共识，每日按持仓价值的 0.5% 释放 HOPE 至社区账户，累计释放达到本金的 2.5 倍后出局。\n\n第一阶段价格 0.10 USDT，之后每阶段上涨 0.01 USDT。',
      },
      en: {
        title: 'Consensus staking stage 1 is open',
        summary:
          'Stage 1 sells at 0.10 USDT, 1,000,000 HOPE per stage; the next stage opens when it sells out.',
        content:
          'Consensus staking stage 1 is open. Pay USDT to buy HOPE at the real-time price; every day 0.5% of the position’s value is released as HOPE into your community account, until the total released reaches 2.5 times the principal.\n\nStage 1 costs 0.10 USDT, and each stage after it 0.01 USDT more.',
      },
    },
  },
  {
    type: 2,
    hoursAgo: 8,
    texts: {
      zhcn: {
        title: '稳定币链上支付规模持续增长',
        summary: '越来越多的商户与个人使用 USDT 进行跨境结算。',
        content:
          '近一年来，稳定币在跨境结算中的使用持续增长，转账快速、费用低廉、全天候可用是主要原因。HOPE 全球支付功能预计 7 月起逐步开放，敬请期待。',
      },
      en: {
        title: 'On-chain stablecoin payments keep growing',
        summary: 'More merchants and people settle across borders in USDT.',
        content:
          'Over the past year stablecoins have been used more and more for cross-border settlement: transfers are fast, cheap and available around the clock. HOPE Global Payment is expected to open gradually from July.',
      },
    },
  },
]

const SCHOOL: DemoSchool[] = [
  {
    kind: 'video',
    cover: 'cover-video.svg',
    video: 'school-staking.mp4',
    hoursAgo: 4,
    texts: {
      zhcn: {
        title: '三分钟了解共识质押',
        summary: '质押 USDT 换取 HOPE，每日释放，社区奖励。',
        content: '视频介绍共识质押的三个步骤：以 USDT 购买 HOPE、每日释放 0.5%、获得社区奖励。',
      },
      en: {
        title: 'Consensus staking in three minutes',
        summary: 'Stake USDT for HOPE, released daily, with community rewards.',
        content:
          'The video walks through consensus staking in three steps: buying HOPE with USDT, the 0.5% daily release and the community rewards.',
      },
    },
  },
  {
    kind: 'article',
    cover: 'cover-guide.svg',
    hoursAgo: 30,
    texts: {
      zhcn: {
        title: 'HOPE 新手指南',
        summary: '从连接钱包到第一次质押，一步一步来。',
        content:
          '1. 在钱包应用（MetaMask、TokenPocket、imToken 等）的内置浏览器中打开 HOPE。\n2. 连接钱包并签名登录，签名不会产生任何费用。\n3. 在「充值」中将 USDT 转入 USDT 账户。\n4. 在「质押」中输入数量，参与共识质押。\n5. 每日释放的 HOPE 进入社区账户，可兑换为 USDT。',
      },
      en: {
        title: 'HOPE beginner’s guide',
        summary: 'From connecting a wallet to your first stake, step by step.',
        content:
          '1. Open HOPE in your wallet app’s browser (MetaMask, TokenPocket, imToken, …).\n2. Connect the wallet and sign to log in; signing costs nothing.\n3. Recharge USDT into your USDT account.\n4. Enter an amount on the Staking screen to join consensus staking.\n5. The HOPE released every day arrives in your community account and can be redeemed for USDT.',
      },
    },
  },
  {
    kind: 'article',
    cover: 'cover-invite.svg',
    hoursAgo: 50,
    texts: {
      zhcn: {
        title: '如何邀请好友',
        summary: '分享邀请链接或邀请码，好友注册后进入你的团队。',
        content:
          '在「邀请好友」页面复制你的邀请链接，或让好友注册时填写你的邀请码。好友注册时可以选择左区、中区或右区。好友参与共识质押后，你将按会员等级获得社区奖励。',
      },
      en: {
        title: 'How to invite friends',
        summary: 'Share your invitation link or code; friends who register join your team.',
        content:
          'Copy your invitation link on the Invite friends screen, or have friends enter your invitation code when they register. They choose the left, central or right area. When they join consensus staking you receive community rewards by your membership level.',
      },
    },
  },
]

/** Stores a demo file under its hash (when `uploadsDir` is given) and returns its public path. */
function demoFile(name: string, uploadsDir: string | undefined, pending: Promise<void>[]): string {
  const bytes = fs.readFileSync(path.join(ASSETS_DIR, name))
  const hash = sha256Hex(bytes)
  const url = uploadUrl(hash, path.extname(name).slice(1) as 'svg' | 'mp4')
  if (uploadsDir) pending.push(writeOnce(uploadsDir, path.basename(url), bytes))
  return url
}

const langsOf = <T>(texts: Texts<T>) => Object.entries(texts) as [Lang, T][]

/**
 * Demo banners, news of both types and business school items in Chinese and English (the
 * other languages show the Chinese). Written once, when the database has no banners and no
 * school items yet, so what operators change later stays changed; an article already there
 * with the same Chinese title (the first demo's) is kept and given its English version. The
 * files are (re)stored in `uploadsDir` on every start.
 */
export async function seedDemoContent(pool: pg.Pool, uploadsDir?: string): Promise<void> {
  const pending: Promise<void>[] = []
  if (uploadsDir) fs.mkdirSync(uploadsDir, { recursive: true })
  const banners = BANNERS.map((b) => ({ ...b, image: demoFile(b.file, uploadsDir, pending) }))
  const school = SCHOOL.map((s) => ({
    ...s,
    coverUrl: demoFile(s.cover, uploadsDir, pending),
    videoUrl: s.video ? demoFile(s.video, uploadsDir, pending) : null,
  }))
  await Promise.all(pending)

  await inTransaction(pool, async (client) => {
    // One seeding at a time (several app processes may start together).
    await client.query('SELECT pg_advisory_xact_lock(7001011)')
    const fresh = await client.query(
      'SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM banners) AND NOT EXISTS (SELECT 1 FROM school_items)',
    )
    if (fresh.rowCount) {
      for (const [i, b] of banners.entries()) {
        const id = await insertId(
          client,
          'INSERT INTO banners (image, link, sort) VALUES ($1, $2, $3) RETURNING id',
          [b.image, b.link, i + 1],
        )
        for (const [lang, title] of langsOf(b.title))
          await client.query(
            'INSERT INTO banner_translations (banner_id, lang, title) VALUES ($1, $2, $3)',
            [id, lang, title],
          )
      }
      for (const n of NEWS) {
        const existing = await client.query<{ id: string }>(
          `SELECT news_id AS id FROM news_translations WHERE lang = 'zhcn' AND title = $1 LIMIT 1`,
          [n.texts.zhcn.title],
        )
        const id =
          existing.rows[0]?.id ??
          (await insertId(
            client,
            `INSERT INTO news (type, published_at) VALUES ($1, now() - $2 * interval '1 hour') RETURNING id`,
            [n.type, n.hoursAgo],
          ))
        await insertTexts(client, 'news_translations', 'news_id', id, n.texts)
      }
      for (const s of school) {
        const id = await insertId(
          client,
          `INSERT INTO school_items (kind, cover, video_url, published_at)
           VALUES ($1, $2, $3, now() - $4 * interval '1 hour') RETURNING id`,
          [s.kind, s.coverUrl, s.videoUrl, s.hoursAgo],
        )
        await insertTexts(client, 'school_translations', 'item_id', id, s.texts)
      }
    }
  })
}

async function insertId(client: pg.PoolClient, sql: string, values: unknown[]): Promise<string> {
  return (await client.query<{ id: string }>(sql, values)).rows[0]!.id
}

async function insertTexts(
  client: pg.PoolClient,
  table: 'news_translations' | 'school_translations',
  key: 'news_id' | 'item_id',
  id: string,
  texts: Texts<{ title: string; summary: string; content: string }>,
): Promise<void> {
  for (const [lang, t] of langsOf(texts))
    await client.query(
      `INSERT INTO ${table} (${key}, lang, title, summary, content) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [id, lang, t.title, t.summary, t.content],
    )
}
