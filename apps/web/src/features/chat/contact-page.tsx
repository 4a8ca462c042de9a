// `#/contact`. Test ids: screen-contact, contact-email, contact-email-copy, contact-hours,
// contact-chat (with contact-chat-unread), contact-retry.
import type { ContactInfo } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import Skeleton from 'antd-mobile/es/components/skeleton'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { CopyButton } from '../../lib/ui/copy-button.tsx'
import { utcOffsetLabel } from '../../lib/format/day.ts'
import { Icon } from '../../lib/ui/icons.tsx'
import { contactInfoOptions } from './api/contact-info.ts'
import { useChatUnread } from './api/chat-unread.ts'
import { RetryButton } from '../../lib/ui/retry-button.tsx'
import './chat.css'

function ContactEmail({ info }: { info: ContactInfo }) {
  const { t } = useTranslation('chat')
  return (
    <>
      <div className="contact-row">
        <span className="contact-row__label">{t('contact.email')}</span>
        <span className="contact-row__value">
          <a href={`mailto:${info.email}`} data-testid="contact-email">
            {info.email}
          </a>
          <CopyButton text={info.email} testId="contact-email-copy" />
        </span>
      </div>
      <div className="contact-row">
        <span className="contact-row__label">{t('contact.hours')}</span>
        <span className="contact-row__value" data-testid="contact-hours">
          {t('contact.hoursValue', {
            from: info.hoursFrom,
            to: info.hoursTo,
            zone: utcOffsetLabel(info.utcOffsetMinutes),
          })}
        </span>
      </div>
    </>
  )
}

/**
 * `#/contact`: how to reach support, by e-mail (with copy) and in the online chat, whose
 * entry shows how many answers wait unread.
 */
export function ContactPage() {
  const { t } = useTranslation(['chat', 'translation'])
  const info = useQuery(contactInfoOptions())
  const unread = useChatUnread()
  return (
    <div className="contact" data-testid="screen-contact">
      <section className="card contact-card">
        <h2 className="section-title">{t('contact.heading')}</h2>
        <p className="contact-intro">{t('contact.intro')}</p>
        {info.isPending ? (
          <Skeleton.Paragraph lineCount={2} animated />
        ) : info.isError ? (
          <RetryButton
            className="records-empty records-retry"
            onClick={() => void info.refetch()}
            data-testid="contact-retry"
          />
        ) : (
          <ContactEmail info={info.data} />
        )}
      </section>
      <Link to="/chat" className="card contact-chat" data-testid="contact-chat">
        <Icon name="chat" className="contact-chat__icon" />
        <span className="contact-chat__text">
          <strong>{t('contact.chat')}</strong>
          <span className="text-muted">{t('contact.chatHint')}</span>
        </span>
        {unread > 0 && (
          <span
            className="contact-chat__badge"
            data-testid="contact-chat-unread"
            aria-label={t('contact.unread', { count: unread })}
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
        <Icon name="chevron" className="contact-chat__chevron" />
      </Link>
    </div>
  )
}
