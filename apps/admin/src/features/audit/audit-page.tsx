import type { AdminAuditEntry } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Tag, Typography, type TableColumnsType } from 'antd'
import { useTranslation } from 'react-i18next'
import { CopyableCode } from '../../lib/cells.tsx'
import { formatTime, groupDigits } from '../../lib/format.ts'
import { ListSearch } from '../../lib/list-search.tsx'
import { usePagedSearch } from '../../lib/pagination.ts'
import { PageTable } from '../../lib/query-table.tsx'
import { auditOptions, type AuditSearch } from './api/audit.ts'

function Snapshot({ value }: { value: string | null }) {
  if (value === null) return '-'
  return (
    <Typography.Text className="admin-mono" ellipsis={{ tooltip: value }} style={{ maxWidth: 220 }}>
      {value}
    </Typography.Text>
  )
}

/** Who changed what, when and why: the operator audit trail. */
export function AuditPage() {
  const { t } = useTranslation()
  const { search, refine, pagination } = usePagedSearch<AuditSearch>({ action: '' })
  const query = useQuery(auditOptions(search))

  const columns: TableColumnsType<AdminAuditEntry> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    { title: t('common.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
    { title: t('audit.operator'), dataIndex: 'operator' },
    {
      title: t('audit.action'),
      dataIndex: 'action',
      render: (v: string) => (
        <Tag color="blue" style={{ cursor: 'pointer' }} onClick={() => refine({ action: v })}>
          {v}
        </Tag>
      ),
    },
    {
      title: t('audit.target'),
      dataIndex: 'targetUser',
      render: (v: string | null) => <CopyableCode value={v} />,
    },
    {
      title: t('audit.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (v: string | null) => (v === null ? '-' : groupDigits(v)),
    },
    { title: t('audit.before'), dataIndex: 'before', render: (v) => <Snapshot value={v} /> },
    { title: t('audit.after'), dataIndex: 'after', render: (v) => <Snapshot value={v} /> },
    { title: t('common.reason'), dataIndex: 'reason', render: (v) => v ?? '-' },
  ]

  return (
    <div data-testid="admin-audit">
      <div className="admin-page-toolbar">
        <ListSearch
          key={search.action}
          defaultValue={search.action}
          maxWidth={320}
          placeholder={t('audit.actionPlaceholder')}
          testId="admin-audit-action"
          onSearch={(action) => refine({ action })}
        />
      </div>
      <PageTable<AdminAuditEntry> query={query} columns={columns} pagination={pagination} />
    </div>
  )
}
