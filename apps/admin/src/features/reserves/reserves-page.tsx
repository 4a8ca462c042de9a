import type { AdminPorSnapshot } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { App, Button, Card, Popconfirm, Space, Tag, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime, groupDigits } from '../../lib/format.ts'
import { usePagedSearch, type PageRequest } from '../../lib/pagination.ts'
import { PageTable } from '../../lib/query-table.tsx'
import { porSnapshotsOptions, usePublishSnapshot, type PublishRequested } from './api/reserves.ts'

const STATUS_COLORS = { published: 'success', pending: 'processing', reorged: 'default' } as const

/** Coverage below 1 (reserves short of liabilities) shows red. */
function Coverage({ value }: { value: string | null }) {
  if (value === null) return <Typography.Text type="secondary">—</Typography.Text>
  return <Tag color={Number(value) < 1 ? 'error' : 'success'}>{value}</Tag>
}

/** "Publish now", after a confirmation: the snapshot job takes the request on its next tick. */
function PublishNow({ onRequested }: { onRequested: (requested: PublishRequested) => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const publish = usePublishSnapshot({
    onSuccess: (r) => {
      onRequested({ requestedAt: r.requestedAt, atMs: Date.now() })
      void message.success(t(r.created ? 'reserves.requested' : 'reserves.alreadyRequested'))
    },
  })
  return (
    <Card title={t('reserves.publishNow')} style={{ marginBottom: 16 }}>
      <Space wrap>
        <Popconfirm
          title={t('reserves.confirm')}
          okText={t('reserves.publish')}
          cancelText={t('common.cancel')}
          okButtonProps={{ 'data-testid': 'admin-reserves-confirm' }}
          onConfirm={() => publish.mutate()}
        >
          <Button type="primary" loading={publish.isPending} data-testid="admin-reserves-publish">
            {t('reserves.publish')}
          </Button>
        </Popconfirm>
        <Typography.Text type="secondary">{t('reserves.publishHint')}</Typography.Text>
      </Space>
    </Card>
  )
}

/** Proof-of-liabilities snapshots: liabilities, reserves at block B, coverage, publication. */
export function ReservesPage() {
  const { t } = useTranslation()
  const { search: page, pagination } = usePagedSearch<PageRequest>({})
  const [requested, setRequested] = useState<PublishRequested | null>(null)
  const query = useQuery(porSnapshotsOptions(page.pageNum, page.pageSize, requested))

  const amount = (v: string) => groupDigits(v)
  const columns: TableColumnsType<AdminPorSnapshot> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    { title: t('reserves.takenAt'), dataIndex: 'takenAt', render: (v) => formatTime(v) },
    { title: t('reserves.block'), dataIndex: 'blockNumber', align: 'right' },
    { title: t('reserves.users'), dataIndex: 'users', align: 'right' },
    { title: t('reserves.totalUsdt'), dataIndex: 'totalUsdt', align: 'right', render: amount },
    {
      title: t('reserves.inFlightUsdt'),
      dataIndex: 'inFlightUsdt',
      align: 'right',
      render: amount,
    },
    {
      title: t('reserves.reservesUsdt'),
      dataIndex: 'reservesUsdt',
      align: 'right',
      render: amount,
    },
    {
      title: t('reserves.coverage'),
      dataIndex: 'coverage',
      align: 'right',
      render: (v: string | null) => <Coverage value={v} />,
    },
    { title: t('reserves.totalHope'), dataIndex: 'totalHope', align: 'right', render: amount },
    {
      title: t('reserves.status'),
      dataIndex: 'status',
      render: (s: AdminPorSnapshot['status']) => (
        <Tag color={STATUS_COLORS[s]}>{t(`reserves.statuses.${s}`)}</Tag>
      ),
    },
    {
      title: t('reserves.publishTx'),
      dataIndex: 'publishTxHash',
      render: (v: string | null, r) =>
        v ? (
          <Typography.Text copyable={{ text: v }} code>
            {`${v.slice(0, 10)}…`}
            {r.publishAttempts > 1 ? ` ×${r.publishAttempts}` : ''}
          </Typography.Text>
        ) : null,
    },
    { title: t('reserves.publishedAt'), dataIndex: 'publishedAt', render: (v) => formatTime(v) },
  ]

  return (
    <div data-testid="admin-reserves">
      <PublishNow onRequested={setRequested} />
      <PageTable<AdminPorSnapshot>
        query={query}
        loading={query.isPending}
        columns={columns}
        pagination={pagination}
      />
    </div>
  )
}
