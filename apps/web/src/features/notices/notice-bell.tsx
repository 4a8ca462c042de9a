import { useTranslation } from 'react-i18next'
import { Icon } from '../../lib/ui/icons.tsx'
import { selectSignedIn, useSession } from '../../lib/store.ts'
import { useUnreadNotices } from './api/notices.ts'
import { NavButton } from '../../lib/ui/nav-button.tsx'
import './notice-bell.css'

/** The badge's text: the count, capped so that it stays a small round mark. */
const badgeText = (count: number): string => (count > 99 ? '99+' : String(count))

function BellButton({ unread }: { unread: number }) {
  const { t } = useTranslation()
  return (
    <NavButton
      className="icon-button notice-bell"
      aria-label={unread > 0 ? t('noticeBell.unread', { count: unread }) : t('titles.notices')}
      to="/notices"
      data-testid="notice-bell"
    >
      <Icon name="bell" />
      {unread > 0 && (
        <span className="notice-bell__count" data-testid="notice-bell-count" aria-hidden="true">
          {badgeText(unread)}
        </span>
      )}
    </NavButton>
  )
}

function CountingBell() {
  return <BellButton unread={useUnreadNotices()} />
}

/**
 * The bell of the main screens' headers: a red count of the unread security notices, asked
 * for (and polled) only while signed in; tapping it opens `#/notices`. It rides on the first
 * screen, so it imports nothing the home does not load already (no query cache, no antd-mobile).
 */
export function NoticeBell() {
  const signedIn = useSession(selectSignedIn)
  return signedIn ? <CountingBell /> : <BellButton unread={0} />
}
