import fs from 'node:fs'
import path from 'node:path'
import { uploadUrl, type Lang, type NewsTypeCode, type SchoolKind } from '@hope/api'
import type pg from 'pg'
import { SERVER_DIR } from '../../paths.ts'
import { sha256Hex, writeOnce } from '../upload/upload.service.ts'
import { inTransaction } from '../../db/transaction.ts'
import { LOCK_KEYS } from '../../db/lock-keys.ts'

/** The demo's pictures and video, committed with the app and stored like uploads. */
const ASSETS_DIR = path.join(SERVER_DIR, 'assets/demo')

/** The demo speaks every language the app does. */
type Texts<T> = Record<Lang, T>

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
    title: {
      zhcn: '共识质押，每日释放收益',
      en: 'Consensus staking, released every day',
      ko: '합의 스테이킹, 매일 지급되는 수익',
      ja: 'コンセンサス・ステーキング、毎日リリース',
      th: 'สเตกฉันทามติ รับผลตอบแทนทุกวัน',
      vi: 'Staking đồng thuận, nhận thưởng mỗi ngày',
    },
  },
  {
    file: 'banner-invite.svg',
    link: '/share',
    title: {
      zhcn: '邀请好友，共建 HOPE 社区',
      en: 'Invite friends and build the HOPE community',
      ko: '친구를 초대해 HOPE 커뮤니티를 함께 만들어요',
      ja: '友達を招待して HOPE コミュニティを一緒に',
      th: 'ชวนเพื่อนมาร่วมสร้างชุมชน HOPE',
      vi: 'Mời bạn bè cùng xây dựng cộng đồng HOPE',
    },
  },
  {
    file: 'banner-school.svg',
    link: '/school',
    title: {
      zhcn: '商学院：三分钟读懂 HOPE',
      en: 'Business school: HOPE in three minutes',
      ko: '비즈니스 스쿨: 3분 만에 알아보는 HOPE',
      ja: 'ビジネススクール：3分でわかる HOPE',
      th: 'โรงเรียนธุรกิจ: รู้จัก HOPE ใน 3 นาที',
      vi: 'Trường kinh doanh: hiểu HOPE trong 3 phút',
    },
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
      ko: {
        title: 'HOPE 커뮤니티 정식 오픈',
        summary:
          '지갑을 연결하고 서명으로 로그인한 뒤, 친구를 초대해 HOPE 커뮤니티를 함께 만드세요.',
        content:
          'HOPE 앱이 열렸습니다. 브라우저 지갑을 연결하고 서명하면 비밀번호 없이 로그인됩니다. 초대 링크나 초대 코드로 가입해 합의 및 커뮤니티 시스템에 참여하세요. 中文, English, 한국어, 日本語, ไทย, Tiếng Việt 여섯 가지 언어를 지원합니다.',
      },
      ja: {
        title: 'HOPE コミュニティが正式オープン',
        summary:
          'ウォレットをつないで署名でログインし、友達を招待して HOPE コミュニティを一緒に育てましょう。',
        content:
          'HOPE アプリを公開しました。ブラウザのウォレットを接続して署名するだけで、パスワードなしでログインできます。招待リンクまたは招待コードで登録すると、コンセンサスとコミュニティの仕組みに参加できます。中文、English、한국어、日本語、ไทย、Tiếng Việt の6言語に対応しています。',
      },
      th: {
        title: 'ชุมชน HOPE เปิดให้บริการแล้ว',
        summary: 'เชื่อมต่อกระเป๋าเงิน ลงนามเพื่อเข้าสู่ระบบ แล้วชวนเพื่อนมาร่วมสร้างชุมชน HOPE',
        content:
          'แอป HOPE เปิดให้ใช้งานแล้ว เพียงเชื่อมต่อกระเป๋าเงินในเบราว์เซอร์และลงนามก็เข้าสู่ระบบได้โดยไม่ต้องใช้รหัสผ่าน สมัครผ่านลิงก์เชิญหรือรหัสเชิญเพื่อเข้าร่วมระบบฉันทามติและชุมชน รองรับ 6 ภาษา ได้แก่ 中文, English, 한국어, 日本語, ไทย และ Tiếng Việt',
      },
      vi: {
        title: 'Cộng đồng HOPE chính thức ra mắt',
        summary: 'Kết nối ví, ký để đăng nhập và mời bạn bè cùng xây dựng cộng đồng HOPE.',
        content:
          'Ứng dụng HOPE đã mở: kết nối ví trên trình duyệt và ký để đăng nhập, không cần mật khẩu. Đăng ký bằng liên kết mời hoặc mã mời để tham gia hệ thống đồng thuận và cộng đồng. Hỗ trợ sáu ngôn ngữ: 中文, English, 한국어, 日本語, ไทย và Tiếng Việt.',
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
      ko: {
        title: '합의 스테이킹 1단계 오픈',
        summary:
          '1단계 가격은 0.10 USDT, 단계마다 1,000,000 HOPE이며 매진되면 다음 단계가 열립니다.',
        content:
          '합의 스테이킹 1단계가 열렸습니다. USDT로 실시간 가격에 HOPE를 구매해 참여하면, 매일 포지션 가치의 0.5%가 HOPE로 커뮤니티 계정에 지급되며 누적 지급액이 원금의 2.5배가 되면 종료됩니다.\n\n1단계 가격은 0.10 USDT이고, 이후 단계마다 0.01 USDT씩 오릅니다.',
      },
      ja: {
        title: 'コンセンサス・ステーキング第1段階を開始',
        summary:
          '第1段階の価格は 0.10 USDT、各段階 1,000,000 HOPE。売り切れると次の段階に進みます。',
        content:
          'コンセンサス・ステーキングの第1段階を開始しました。USDT でリアルタイム価格の HOPE を購入して参加すると、毎日ポジション価値の 0.5% が HOPE としてコミュニティアカウントにリリースされ、累計が元本の 2.5 倍に達すると終了します。\n\n第1段階の価格は 0.10 USDT で、以降は段階ごとに 0.01 USDT ずつ上がります。',
      },
      th: {
        title: 'เปิดสเตกฉันทามติระยะที่ 1',
        summary: 'ระยะที่ 1 ราคา 0.10 USDT ระยะละ 1,000,000 HOPE ขายหมดแล้วจะเข้าสู่ระยะถัดไปโดยอัตโนมัติ',
        content:
          'สเตกฉันทามติระยะที่ 1 เปิดแล้ว ใช้ USDT ซื้อ HOPE ตามราคาปัจจุบันเพื่อเข้าร่วม ทุกวันระบบจะปล่อย HOPE มูลค่า 0.5% ของสถานะเข้าบัญชีชุมชน จนกว่ายอดสะสมจะถึง 2.5 เท่าของเงินต้น\n\nระยะที่ 1 ราคา 0.10 USDT และระยะต่อไปเพิ่มขึ้นระยะละ 0.01 USDT',
      },
      vi: {
        title: 'Mở giai đoạn 1 staking đồng thuận',
        summary:
          'Giai đoạn 1 giá 0,10 USDT, mỗi giai đoạn 1.000.000 HOPE; bán hết sẽ tự chuyển sang giai đoạn tiếp theo.',
        content:
          'Giai đoạn 1 staking đồng thuận đã mở. Dùng USDT mua HOPE theo giá thời gian thực để tham gia; mỗi ngày 0,5% giá trị vị thế được trả bằng HOPE vào tài khoản cộng đồng, cho đến khi tổng số đã trả đạt 2,5 lần tiền gốc.\n\nGiai đoạn 1 giá 0,10 USDT, mỗi giai đoạn sau tăng thêm 0,01 USDT.',
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
      ko: {
        title: '스테이블코인 온체인 결제 규모 꾸준히 성장',
        summary: 'USDT로 해외 결제를 하는 가맹점과 개인이 늘고 있습니다.',
        content:
          '지난 1년 동안 해외 결제에 스테이블코인을 쓰는 경우가 꾸준히 늘었습니다. 송금이 빠르고 수수료가 낮으며 24시간 이용할 수 있기 때문입니다. HOPE 글로벌 결제는 7월부터 차례로 열릴 예정입니다.',
      },
      ja: {
        title: 'ステーブルコインのオンチェーン決済が拡大',
        summary: 'USDT で国境を越えた決済を行う加盟店や個人が増えています。',
        content:
          'この1年、国境を越えた決済でのステーブルコインの利用が伸び続けています。送金が速く、手数料が安く、24時間使えることが主な理由です。HOPE グローバル決済は7月から順次公開の予定です。',
      },
      th: {
        title: 'การชำระเงินด้วยสเตเบิลคอยน์บนเชนเติบโตต่อเนื่อง',
        summary: 'ร้านค้าและผู้ใช้จำนวนมากขึ้นใช้ USDT ชำระเงินข้ามประเทศ',
        content:
          'ตลอดปีที่ผ่านมา การใช้สเตเบิลคอยน์เพื่อชำระเงินข้ามประเทศเพิ่มขึ้นอย่างต่อเนื่อง เพราะโอนได้เร็ว ค่าธรรมเนียมต่ำ และใช้ได้ตลอด 24 ชั่วโมง บริการชำระเงินทั่วโลกของ HOPE คาดว่าจะทยอยเปิดตั้งแต่เดือนกรกฎาคม',
      },
      vi: {
        title: 'Thanh toán stablecoin trên chuỗi tiếp tục tăng',
        summary: 'Ngày càng nhiều cửa hàng và cá nhân thanh toán xuyên biên giới bằng USDT.',
        content:
          'Trong năm qua, stablecoin ngày càng được dùng nhiều cho thanh toán xuyên biên giới nhờ chuyển nhanh, phí thấp và hoạt động suốt ngày đêm. Thanh toán toàn cầu HOPE dự kiến mở dần từ tháng 7.',
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
      ko: {
        title: '3분 만에 알아보는 합의 스테이킹',
        summary: 'USDT로 HOPE를 스테이킹하고, 매일 지급받고, 커뮤니티 보상도 받으세요.',
        content:
          '합의 스테이킹의 세 단계를 영상으로 소개합니다. USDT로 HOPE 구매, 매일 0.5% 지급, 커뮤니티 보상.',
      },
      ja: {
        title: '3分でわかるコンセンサス・ステーキング',
        summary: 'USDT で HOPE をステーキング、毎日リリース、コミュニティ報酬。',
        content:
          'コンセンサス・ステーキングの3つのステップを動画で紹介します。USDT での HOPE 購入、毎日 0.5% のリリース、コミュニティ報酬です。',
      },
      th: {
        title: 'รู้จักสเตกฉันทามติใน 3 นาที',
        summary: 'สเตก USDT รับ HOPE ปล่อยทุกวัน พร้อมรางวัลชุมชน',
        content:
          'วิดีโอแนะนำสเตกฉันทามติใน 3 ขั้นตอน: ซื้อ HOPE ด้วย USDT รับการปล่อย 0.5% ทุกวัน และรับรางวัลชุมชน',
      },
      vi: {
        title: 'Hiểu staking đồng thuận trong 3 phút',
        summary: 'Stake USDT lấy HOPE, nhận trả hằng ngày và thưởng cộng đồng.',
        content:
          'Video giới thiệu ba bước của staking đồng thuận: mua HOPE bằng USDT, nhận trả 0,5% mỗi ngày và nhận thưởng cộng đồng.',
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
      ko: {
        title: 'HOPE 초보자 가이드',
        summary: '지갑 연결부터 첫 스테이킹까지 차근차근 알아보세요.',
        content:
          '1. 지갑 앱(MetaMask, TokenPocket, imToken 등)의 내장 브라우저에서 HOPE를 엽니다.\n2. 지갑을 연결하고 서명해 로그인합니다. 서명에는 비용이 들지 않습니다.\n3. 「충전」에서 USDT를 USDT 계정으로 옮깁니다.\n4. 「스테이킹」에서 수량을 입력해 합의 스테이킹에 참여합니다.\n5. 매일 지급되는 HOPE는 커뮤니티 계정에 들어오며 USDT로 교환할 수 있습니다.',
      },
      ja: {
        title: 'HOPE はじめてガイド',
        summary: 'ウォレットの接続から初めてのステーキングまで、順を追って説明します。',
        content:
          '1. ウォレットアプリ（MetaMask、TokenPocket、imToken など）の内蔵ブラウザで HOPE を開きます。\n2. ウォレットを接続し、署名してログインします。署名に手数料はかかりません。\n3. 「入金」で USDT を USDT アカウントに移します。\n4. 「ステーキング」で数量を入力し、コンセンサス・ステーキングに参加します。\n5. 毎日リリースされる HOPE はコミュニティアカウントに入り、USDT に交換できます。',
      },
      th: {
        title: 'คู่มือเริ่มต้นใช้งาน HOPE',
        summary: 'ตั้งแต่เชื่อมต่อกระเป๋าเงินจนถึงการสเตกครั้งแรก ทีละขั้นตอน',
        content:
          '1. เปิด HOPE ในเบราว์เซอร์ของแอปกระเป๋าเงิน (MetaMask, TokenPocket, imToken ฯลฯ)\n2. เชื่อมต่อกระเป๋าเงินและลงนามเพื่อเข้าสู่ระบบ การลงนามไม่มีค่าใช้จ่าย\n3. ไปที่ «เติมเงิน» เพื่อโอน USDT เข้าบัญชี USDT\n4. ไปที่ «การสเตก» กรอกจำนวนเพื่อเข้าร่วมสเตกฉันทามติ\n5. HOPE ที่ปล่อยทุกวันจะเข้าบัญชีชุมชน และแลกเป็น USDT ได้',
      },
      vi: {
        title: 'Hướng dẫn cho người mới dùng HOPE',
        summary: 'Từ kết nối ví đến lần staking đầu tiên, từng bước một.',
        content:
          '1. Mở HOPE trong trình duyệt của ứng dụng ví (MetaMask, TokenPocket, imToken…).\n2. Kết nối ví và ký để đăng nhập; ký không tốn phí.\n3. Vào «Nạp tiền» để chuyển USDT vào tài khoản USDT.\n4. Vào «Staking», nhập số lượng để tham gia staking đồng thuận.\n5. HOPE được trả mỗi ngày vào tài khoản cộng đồng và có thể quy đổi sang USDT.',
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
      ko: {
        title: '친구를 초대하는 방법',
        summary: '초대 링크나 초대 코드를 공유하세요. 가입한 친구는 내 팀에 들어옵니다.',
        content:
          '「친구 초대」 화면에서 초대 링크를 복사하거나, 친구가 가입할 때 내 초대 코드를 입력하게 하세요. 친구는 왼쪽, 중앙, 오른쪽 구역 중 하나를 고릅니다. 친구가 합의 스테이킹에 참여하면 회원 등급에 따라 커뮤니티 보상을 받습니다.',
      },
      ja: {
        title: '友達の招待方法',
        summary: '招待リンクか招待コードを共有すると、登録した友達があなたのチームに入ります。',
        content:
          '「友達を招待」画面で招待リンクをコピーするか、友達の登録時にあなたの招待コードを入力してもらいます。友達は左・中央・右のエリアから選びます。友達がコンセンサス・ステーキングに参加すると、会員レベルに応じてコミュニティ報酬を受け取れます。',
      },
      th: {
        title: 'วิธีชวนเพื่อน',
        summary: 'แชร์ลิงก์เชิญหรือรหัสเชิญ เพื่อนที่สมัครแล้วจะเข้าทีมของคุณ',
        content:
          'คัดลอกลิงก์เชิญในหน้า «ชวนเพื่อน» หรือให้เพื่อนกรอกรหัสเชิญของคุณตอนสมัคร เพื่อนเลือกได้ว่าจะอยู่โซนซ้าย โซนกลาง หรือโซนขวา เมื่อเพื่อนเข้าร่วมสเตกฉันทามติ คุณจะได้รับรางวัลชุมชนตามระดับสมาชิก',
      },
      vi: {
        title: 'Cách mời bạn bè',
        summary: 'Chia sẻ liên kết mời hoặc mã mời; bạn bè đăng ký sẽ vào nhóm của bạn.',
        content:
          'Sao chép liên kết mời ở màn hình «Mời bạn bè», hoặc nhờ bạn bè nhập mã mời của bạn khi đăng ký. Bạn bè chọn khu trái, khu giữa hoặc khu phải. Khi bạn bè tham gia staking đồng thuận, bạn nhận thưởng cộng đồng theo cấp thành viên.',
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
 * Demo banners, news of both types and business school items in all six languages. Written
 * once, when the database has no banners and no school items yet, so what operators change
 * later stays changed; an article already there with the same Chinese title (the first
 * demo's) is kept and given its other language versions. The files are (re)stored in
 * `uploadsDir` on every start.
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
    await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEYS.contentSeed])
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
