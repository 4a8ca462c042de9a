import type { AdminDeposit } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Input, Table, Tag, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime, groupDigits, shorten } from '../../lib/format.ts'
import { LoadError } from '../../lib/load-error.tsx'
import { DEFAULT_PAGE_SIZE, pagination } from '../../lib/pagination.ts'
import { depositsOptions, type DepositSearch } from './api/deposits.ts'

/** The deposit watcher's statuses (a status it adds later is shown as it is). */
const STATUS_COLORS = {
  on_chain: 'blue',
  credited: 'green',
  reorged: 'red',
  unattributed: 'orange',
  failed: 'red',
} as const
type DepositStatus = keyof typeof STATUS_COLORS
const isKnown = (s: string): s is DepositStatus => Object.hasOwn(STATUS_COLORS, s)

/** Deposits as the chain watcher recorded them, searchable by address or hash. */
export function DepositsPage() {
  const { t } = useTranslation()
  const [search, setSearch] = useState<DepositSearch>({
    q: '',
    pageNum: 1,
    pageSize: DEFAULT_PAGE_SIZE,
  })
  const query = useQuery(depositsOptions(search))

  const columns: TableColumnsType<AdminDeposit> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    {
      title: t('deposits.user'),
      dataIndex: 'userName',
      render: (v: string) => (
        <Typography.Text className="admin-mono" copyable={{ text: v }}>
          {shorten(v)}
        </Typography.Text>
      ),
    },
    {
      title: t('deposits.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (v: string) => groupDigits(v),
    },
    {
      title: t('deposits.status'),
      dataIndex: 'status',
      render: (v: string) =>
        isKnown(v) ? (
          <Tag color={STATUS_COLORS[v]}>{t(`deposits.statuses.${v}`)}</Tag>
        ) : (
          <Tag>{v}</Tag>
        ),
    },
    { title: t('deposits.confirmations'), dataIndex: 'confirmations', align: 'right' },
    { title: t('deposits.block'), dataIndex: 'blockNumber', render: (v) => v ?? '-' },
    {
      title: t('deposits.txHash'),
      dataIndex: 'txHash',
      render: (v: string) => (
        <Typography.Text className="admin-mono" copyable={{ text: v }}>
          {shorten(v, 10, 8)}
        </Typography.Text>
      ),
    },
    { title: t('common.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
  ]

  return (
    <div data-testid="admin-deposits">
      <div className="admin-page-toolbar">
        <Input.Search
          allowClear
          enterButton
          style={{ maxWidth: 420 }}
          placeholder={t('deposits.searchPlaceholder')}
          data-testid="admin-deposits-search"
          onSearch={(q) => setSearch((s) => ({ ...s, q: q.trim(), pageNum: 1 }))}
        />
      </div>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      <Table<AdminDeposit>
        rowKey="id"
        size="middle"
        scroll={{ x: 'max-content' }}
        loading={query.isFetching}
        columns={columns}
        dataSource={query.data?.list ?? []}
        pagination={pagination(query.data, search, (pageNum, pageSize) =>
          setSearch((s) => ({ ...s, pageNum, pageSize })),
        )}
      />
    </div>
  )
}
