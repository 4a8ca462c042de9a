import type { AdminSetting } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Button, Space, Tag, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime } from '../../lib/format.ts'
import { QueryTable } from '../../lib/query-table.tsx'
import { settingsOptions } from './api/settings.ts'
import { SettingEditModal } from './setting-edit-modal.tsx'
import { SettingHistoryDrawer } from './setting-history-drawer.tsx'

const mono = (v: string) => (
  <Typography.Text className="admin-mono" ellipsis={{ tooltip: v }} style={{ maxWidth: 320 }}>
    {v}
  </Typography.Text>
)

/** The operator settings: current value, default, last change; edit with a reason. */
export function SettingsPage() {
  const { t } = useTranslation()
  const query = useQuery(settingsOptions())
  const [editing, setEditing] = useState<AdminSetting | null>(null)
  const [history, setHistory] = useState<string | null>(null)

  const columns: TableColumnsType<AdminSetting> = [
    {
      title: t('settings.key'),
      dataIndex: 'key',
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t('settings.value'),
      dataIndex: 'value',
      render: (v: string, s) => (
        <Space size={4}>
          {mono(v)}
          {v !== s.defaultValue && <Tag color="gold">{t('settings.changed')}</Tag>}
        </Space>
      ),
    },
    { title: t('settings.default'), dataIndex: 'defaultValue', render: mono },
    { title: t('settings.updatedAt'), dataIndex: 'updatedAt', render: (v) => formatTime(v) },
    { title: t('settings.updatedBy'), dataIndex: 'updatedBy', render: (v) => v ?? '-' },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, s) => (
        <Space size={4}>
          <Button
            size="small"
            data-testid={`admin-setting-edit-${s.key}`}
            onClick={() => setEditing(s)}
          >
            {t('common.edit')}
          </Button>
          <Button
            size="small"
            type="link"
            data-testid={`admin-setting-history-${s.key}`}
            onClick={() => setHistory(s.key)}
          >
            {t('settings.history')}
          </Button>
        </Space>
      ),
    },
  ]

  return (
    <div data-testid="admin-settings">
      <QueryTable<AdminSetting>
        query={query}
        rowKey="key"
        columns={columns}
        dataSource={query.data ?? []}
        pagination={false}
      />
      {editing && <SettingEditModal setting={editing} onClose={() => setEditing(null)} />}
      {history && <SettingHistoryDrawer settingKey={history} onClose={() => setHistory(null)} />}
    </div>
  )
}
