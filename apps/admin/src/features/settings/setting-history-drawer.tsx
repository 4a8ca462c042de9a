import type { AdminSettingChange } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Drawer, Table, Typography, type TableColumnsType } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatTime } from '../../lib/format.ts'
import { LoadError } from '../../lib/load-error.tsx'
import { usePagedSearch, type PageRequest } from '../../lib/pagination.ts'
import { settingHistoryOptions } from './api/settings.ts'

const json = (v: string | null) =>
  v === null ? '-' : <Typography.Text className="admin-mono">{v}</Typography.Text>

/** Every change of one setting: before, after, who and why. */
export function SettingHistoryDrawer({
  settingKey,
  onClose,
}: {
  settingKey: string
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { search: page, pagination } = usePagedSearch<PageRequest>({}, 10)
  const query = useQuery(settingHistoryOptions(settingKey, page.pageNum, page.pageSize))
  const columns: TableColumnsType<AdminSettingChange> = [
    { title: t('settings.changedAt'), dataIndex: 'changedAt', render: (v) => formatTime(v) },
    { title: t('settings.changedBy'), dataIndex: 'changedBy' },
    { title: t('audit.before'), dataIndex: 'before', render: json },
    { title: t('audit.after'), dataIndex: 'after', render: json },
    { title: t('common.reason'), dataIndex: 'reason', render: (v) => v ?? '-' },
  ]
  return (
    <Drawer
      open
      size={760}
      title={t('settings.historyTitle', { key: settingKey })}
      onClose={onClose}
      data-testid="admin-setting-history"
    >
      {query.isError && <LoadError error={query.error} onRetry={() => void query.refetch()} />}
      <Table<AdminSettingChange>
        rowKey="id"
        size="small"
        loading={query.isFetching}
        columns={columns}
        dataSource={query.data?.list ?? []}
        pagination={pagination(query.data)}
      />
    </Drawer>
  )
}
