import type { AdminAuditEntry } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Input, Table, Tag, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime, groupDigits, shorten } from '../../lib/format.ts'
import { LoadError } from '../../lib/load-error.tsx'
import { DEFAULT_PAGE_SIZE, pagination } from '../../lib/pagination.ts'
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
  const [search, setSearch] = useState<AuditSearch>({
    action: '',
    pageNum: 1,
    pageSize: DEFAULT_PAGE_SIZE,
  })
  const query = useQuery(auditOptions(search))

  const columns: TableColumnsType<AdminAuditEntry> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    { title: t('common.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
    { title: t('audit.operator'), dataIndex: 'operator' },
    {
      title: t('audit.action'),
      dataIndex: 'action',
      render: (v: string) => (
        <Tag
          color="blue"
          style={{ cursor: 'pointer' }}
          onClick={() => setSearch((s) => ({ ...s, action: v, pageNum: 1 }))}
        >
          {v}
        </Tag>
      ),
    },
    {
      title: t('audit.target'),
      dataIndex: 'targetUser',
      render: (v: string | null) =>
        v ? (
          <Typography.Text className="admin-mono" copyable={{ text: v }}>
            {shorten(v)}
          </Typography.Text>
        ) : (
          '-'
        ),
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
        <Input.Search
          key={search.action}
          allowClear
          enterButton
          defaultValue={search.action}
          style={{ maxWidth: 320 }}
          placeholder={t('audit.actionPlaceholder')}
          data-testid="admin-audit-action"
          onSearch={(action) => setSearch((s) => ({ ...s, action: action.trim(), pageNum: 1 }))}
        />
      </div>
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      <Table<AdminAuditEntry>
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
