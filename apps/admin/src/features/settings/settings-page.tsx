import type { AdminSetting } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Button, Space, Tag, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime } from '../../lib/format.ts'
import { QueryTable } from '../../lib/query-table.tsx'
import { settingsOptions } from './api/settings.ts'
import { rangeText } from './setting-meta.ts'
import { SETTING_UNITS } from './setting-units.ts'
import { SettingEditModal } from './setting-edit-modal.tsx'
import { SettingHistoryDrawer } from './setting-history-drawer.tsx'

const mono = (v: string) => (
  <Typography.Text className="admin-mono" ellipsis={{ tooltip: v }} style={{ maxWidth: 320 }}>
    {v}
  </Typography.Text>
)

/** A setting's name and unit in the console's language; the key when the console has none. */
export function useSettingTexts() {
  const { i18n } = useTranslation()
  // Keys built from the server's setting names: texts the console may not have (a newer server).
  const say = (key: string, fallback: string): string =>
    i18n.exists(key) ? String(i18n.t(key as never)) : fallback
  return (key: string) => {
    const unit = SETTING_UNITS[key]
    return {
      label: say(`settings.meta.${key}.label`, key),
      help: say(`settings.meta.${key}.help`, ''),
      unit: unit ? say(`settings.units.${unit}`, '') : '',
    }
  }
}

/**
 * The operator settings, each with its name, what it is, its unit and range in the console's
 * language: current value, default, last change; edit with a reason.
 */
export function SettingsPage() {
  const { t } = useTranslation()
  const query = useQuery(settingsOptions())
  const [editing, setEditing] = useState<AdminSetting | null>(null)
  const [history, setHistory] = useState<string | null>(null)
  const texts = useSettingTexts()

  const columns: TableColumnsType<AdminSetting> = [
    {
      title: t('settings.key'),
      dataIndex: 'key',
      width: 360,
      render: (v: string) => {
        const { label, help } = texts(v)
        return (
          <Space orientation="vertical" size={0}>
            <Typography.Text strong>{label}</Typography.Text>
            <Typography.Text type="secondary" className="admin-mono" style={{ fontSize: 12 }}>
              {v}
            </Typography.Text>
            {help && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {help}
              </Typography.Text>
            )}
          </Space>
        )
      },
    },
    {
      title: t('settings.value'),
      dataIndex: 'value',
      render: (v: string, s) => (
        <Space size={4} wrap>
          {mono(v)}
          {texts(s.key).unit && (
            <Typography.Text type="secondary">{texts(s.key).unit}</Typography.Text>
          )}
          {v !== s.defaultValue && <Tag color="gold">{t('settings.changed')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('settings.range'),
      key: 'range',
      render: (_, s) => <Typography.Text>{rangeText(t, s.range)}</Typography.Text>,
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
