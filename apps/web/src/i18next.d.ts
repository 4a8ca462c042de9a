import 'i18next'
import type zhcnChain from './locales/zhcn/chain.json'
import type zhcnChat from './locales/zhcn/chat.json'
import type zhcnContent from './locales/zhcn/content.json'
import type zhcnGame from './locales/zhcn/game.json'
import type zhcnHolder from './locales/zhcn/holder.json'
import type zhcnInvite from './locales/zhcn/invite.json'
import type zhcnLogin from './locales/zhcn/login.json'
import type zhcnMoney from './locales/zhcn/money.json'
import type zhcnNotices from './locales/zhcn/notices.json'
import type zhcnPor from './locales/zhcn/por.json'
import type zhcnQuotes from './locales/zhcn/quotes.json'
import type zhcnRanking from './locales/zhcn/ranking.json'
import type zhcnShare from './locales/zhcn/share.json'
import type zhcnTeam from './locales/zhcn/team.json'
import type zhcn from './locales/zhcn/translation.json'
import type zhcnUi from './locales/zhcn/ui.json'
import type zhcnVip from './locales/zhcn/vip.json'

/**
 * `t()` is typed from the Chinese resources: a key missing there does not compile.
 * `translation` ships with the app; the other namespaces load with the screens that use them.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation'
    resources: {
      translation: typeof zhcn
      money: typeof zhcnMoney
      chain: typeof zhcnChain
      chat: typeof zhcnChat
      content: typeof zhcnContent
      game: typeof zhcnGame
      team: typeof zhcnTeam
      vip: typeof zhcnVip
      holder: typeof zhcnHolder
      quotes: typeof zhcnQuotes
      ranking: typeof zhcnRanking
      share: typeof zhcnShare
      login: typeof zhcnLogin
      por: typeof zhcnPor
      notices: typeof zhcnNotices
      invite: typeof zhcnInvite
      ui: typeof zhcnUi
    }
  }
}
