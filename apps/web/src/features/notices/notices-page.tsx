import { normalizeLang, NOTICE_KINDS, type NoticeKind, type SecurityNotice } from '@hope/api'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { depositAddressOptions } from '../../lib/api/deposit-address.ts'
import { formatDateTime } from '../../lib/format/format.ts'
import { RecordPages, useRecordItems } from '../../lib/ui/record-pages.tsx'
import { TxHash } from '../../lib/ui/tx-hash.tsx'
import { noticesOptions } from './api/notices.ts'
import { useReadNotices } from './api/read-notices.ts'
import { noticeValues } from './notice-text.ts'
import './notices.css'

const isKnownKind = (kind: string): kind is NoticeKind =>
  (NOTICE_KINDS as readonly string[]).includes(kind)

function NoticeRow({
  notice,
  unread,
  explorerTxUrl,
}: {
  notice: SecurityNotice
  unread: boolean
  explorerTxUrl: string | undefined
}) {
  const { t, i18n } = useTranslation(['notices', 'translation'])
  const lang = normalizeLang(i18n.language)
  const { kind, detail } = notice
  // A kind newer than this app still shows, under the screen's own name.
  const known = isKnownKind(kind)
  return (
    <li
      className={unread ? 'record notice notice--unread' : 'record notice'}
      data-testid="notice-item"
      data-unread={unread}
    >
      <div className="record__head">
        <h2 className="notice__title" data-testid="notice-title">
          {known ? t(`notices.kinds.${kind}.title`) : t('translation:titles.notices')}
        </h2>
        {unread && (
          <span className="notice__new" data-testid="notice-unread">
            {t('notices.unread')}
          </span>
        )}
      </div>
      {known && (
        <p className="notice__text" data-testid="notice-text">
          {t(`notices.kinds.${kind}.text`, noticeValues(detail, lang))}
        </p>
      )}
      {detail.txHash && (
        <p className="notice__hash">
          <span className="notice__hash-label">{t('notices.txHash')}</span>
          <TxHash hash={detail.txHash} explorerTxUrl={explorerTxUrl} testId="notice-hash" />
        </p>
      )}
      <p className="record__date">{formatDateTime(notice.createdAt, lang)}</p>
    </li>
  )
}

/**
 * `#/notices`: the security notices, newest first. Opened with unread ones, it marks them all
 * read once (the bell clears), and keeps showing as new those that were unread when they came.
 */
export function NoticesPage() {
  const { t } = useTranslation('notices')
  const notices = useInfiniteQuery(noticesOptions())
  const items = useRecordItems(notices)
  const unread = notices.data?.pages[0]?.unread ?? 0
  const hasHash = items.some((notice) => notice.detail.txHash)
  const deposit = useQuery({ ...depositAddressOptions(), enabled: hasHash })

  // The notices unread as they arrived: still marked after the list comes back all read.
  const [arrivedUnread, setArrivedUnread] = useState<ReadonlySet<number>>(() => new Set())
  useEffect(() => {
    const fresh = items.filter((notice) => !notice.read && !arrivedUnread.has(notice.id))
    if (fresh.length > 0)
      setArrivedUnread((seen) => new Set([...seen, ...fresh.map((notice) => notice.id)]))
  }, [items, arrivedUnread])

  const { mutate: markAllRead } = useReadNotices()
  const asked = useRef(false)
  useEffect(() => {
    if (unread > 0 && !asked.current) {
      asked.current = true
      markAllRead()
    }
  }, [unread, markAllRead])

  return (
    <div className="records" data-testid="notices-page">
      <RecordPages query={notices} items={items} empty={t('notices.empty')} testId="notices">
        {(notice) => (
          <NoticeRow
            key={notice.id}
            notice={notice}
            unread={!notice.read || arrivedUnread.has(notice.id)}
            explorerTxUrl={deposit.data?.explorerTxUrl}
          />
        )}
      </RecordPages>
    </div>
  )
}
