import { LANGS, normalizeLang, type Lang } from '@hope/api'
import { useQueryClient } from '@tanstack/react-query'
import Button from 'antd-mobile/es/components/button'
import List from 'antd-mobile/es/components/list'
import Popup from 'antd-mobile/es/components/popup'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { LEVELS } from '@hope/api'
import { CopyButton } from '../../lib/ui/copy-button.tsx'
import { LatestNewsSection } from '../../lib/ui/latest-news.tsx'
import { showConfirm } from '../../lib/ui/dialog.ts'
import { setLanguage } from '../../lib/i18n/i18n.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { LANG_NAMES } from '../../lib/format/lang-names.ts'
import { mask } from '../../lib/format/mask.ts'
import { request } from '../../lib/api/request.ts'
import { useSession } from '../../lib/store.ts'
import { UserAvatar } from '../../lib/ui/user-avatar.tsx'
import { dropLoginPair } from '../../lib/wallet/login-pair.ts'
import './account.css'
import { useEscape } from '../../lib/ui/use-escape.ts'

function LanguageSwitch() {
  const { t, i18n } = useTranslation()
  const [open, setOpen] = useState(false)
  const current = normalizeLang(i18n.language)
  const choose = async (lang: Lang) => {
    setOpen(false)
    await setLanguage(lang)
  }
  useEscape(open, () => setOpen(false))
  return (
    <>
      <List.Item
        prefix={<Icon name="globe" className="account-icon" />}
        extra={LANG_NAMES[current]}
        arrowIcon
        className="account-menu"
        data-testid="lang-row"
      >
        <button
          type="button"
          className="account-menu__link"
          onClick={() => setOpen(true)}
          data-testid="lang-switch"
        >
          {t('account.language')}
        </button>
      </List.Item>
      <Popup
        visible={open}
        onMaskClick={() => setOpen(false)}
        onClose={() => setOpen(false)}
        bodyClassName="account-lang-popup"
      >
        <h2 className="account-lang-title">{t('account.chooseLanguage')}</h2>
        <List>
          {LANGS.map((lang) => (
            <List.Item
              key={lang}
              arrowIcon={false}
              onClick={() => void choose(lang)}
              extra={lang === current ? <span className="account-check">✓</span> : null}
              data-testid={`lang-option-${lang}`}
              aria-selected={lang === current}
            >
              {LANG_NAMES[lang]}
            </List.Item>
          ))}
        </List>
      </Popup>
    </>
  )
}

/** The account screen's ways to other screens. */
const MENU = [
  { to: '/share', icon: 'share', label: 'titles.share', testId: 'account-share' },
  {
    to: '/loginAccount',
    icon: 'wallet',
    label: 'titles.loginAccount',
    testId: 'account-login-account',
  },
  { to: '/school', icon: 'school', label: 'titles.school', testId: 'account-school' },
  { to: '/contact', icon: 'contact', label: 'account.contactUs', testId: 'account-contact' },
] as const

export function AccountPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const user = useSession((s) => s.userInfo)
  const address = useSession((s) => s.address)
  const level = LEVELS[user?.level ?? 0] ?? 'none'

  const logout = async () => {
    const confirmed = await showConfirm({
      content: t('account.logoutConfirm'),
      confirmText: t('account.logout'),
      cancelText: t('common.cancel'),
    })
    if (!confirmed) return
    await request('user/logout', {}, { hideToast: true }).catch(() => undefined)
    // A fresh login must ask the wallet for a new signature, not reuse the cached pair.
    if (address) dropLoginPair(window.sessionStorage, address)
    // Signed out stays signed out: the guard asks the wallet again only when the user says so.
    useSession.getState().logOut()
    queryClient.clear()
    void navigate('/', { replace: true })
  }

  return (
    <div className="account" data-testid="account-page">
      <section className="card account-summary">
        <UserAvatar user={user} size="3.5rem" />
        <div className="account-summary__who">
          <div className="user-name">{user?.nickName || (user ? mask(user.userName) : '')}</div>
          <span className="user-level">{t(`levels.${level}`)}</span>
        </div>
      </section>

      <List mode="card" className="account-list">
        <List.Item
          className="account-fact"
          extra={
            user && (
              <span className="account-extra">
                <span className="account-extra__value">{mask(user.userName)}</span>
                <CopyButton text={user.userName} />
              </span>
            )
          }
        >
          {t('account.address')}
        </List.Item>
        <List.Item
          className="account-fact"
          extra={
            user?.referralCode && (
              <span className="account-extra">
                <span className="account-extra__value">{user.referralCode}</span>
                <CopyButton text={user.referralCode} />
              </span>
            )
          }
        >
          {t('account.referralCode')}
        </List.Item>
        {user?.invitationLink && (
          <List.Item
            extra={<CopyButton text={user.invitationLink} testId="copy-invitation-link" />}
            description={<span className="account-link">{user.invitationLink}</span>}
          >
            {t('account.invitationLink')}
          </List.Item>
        )}
      </List>

      <LatestNewsSection className="card account-news" testId="account-news" />

      <List mode="card" className="account-list">
        {MENU.map((item) => (
          <List.Item
            key={item.to}
            prefix={<Icon name={item.icon} className="account-icon" />}
            arrowIcon
            className="account-menu"
          >
            <Link to={item.to} className="account-menu__link" data-testid={item.testId}>
              {t(item.label)}
            </Link>
          </List.Item>
        ))}
        <LanguageSwitch />
      </List>

      <div className="account-logout">
        <Button block shape="rounded" onClick={() => void logout()} data-testid="logout-button">
          {t('account.logout')}
        </Button>
      </div>
    </div>
  )
}
