import type { AdminDeposit } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Tag, type TableColumnsType } from 'antd'
import { useTranslation } from 'react-i18next'
import { CopyableCode } from '../../lib/cells.tsx'
import { formatTime, groupDigits } from '../../lib/format.ts'
import { ListSearch } from '../../lib/list-search.tsx'
import { usePagedSearch } from '../../lib/pagination.ts'
import { PageTable } from '../../lib/query-table.tsx'
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
  const { search, refine, pagination } = usePagedSearch<DepositSearch>({ q: '' })
  const query = useQuery(depositsOptions(search))

  const columns: TableColumnsType<AdminDeposit> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    {
      title: t('deposits.user'),
      dataIndex: 'userName',
      render: (v: string) => <CopyableCode value={v} />,
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
      render: (v: string) => <CopyableCode value={v} head={10} tail={8} />,
    },
    { title: t('common.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
  ]

  return (
    <div data-testid="admin-deposits">
      <div className="admin-page-toolbar">
        <ListSearch
          maxWidth={420}
          placeholder={t('deposits.searchPlaceholder')}
          testId="admin-deposits-search"
          onSearch={(q) => refine({ q })}
        />
      </div>
      <PageTable<AdminDeposit> query={query} columns={columns} pagination={pagination} />
    </div>
  )
}
