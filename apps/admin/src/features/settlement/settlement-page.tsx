import type { SettlementRun } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import {
  App,
  Button,
  Card,
  DatePicker,
  Popconfirm,
  Space,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime, groupDigits, utcOffsetLabel } from '../../lib/format.ts'
import { usePagedSearch, type PageRequest } from '../../lib/pagination.ts'
import { PageTable } from '../../lib/query-table.tsx'
import { settlementRunsOptions, useSettleDay } from './api/settlement.ts'

/** The spec's settlement time zone (UTC+8), until the runs say which one the server uses. */
const SPEC_UTC_OFFSET_MINUTES = 480

/**
 * Today in the settlement time zone, the latest day the picker offers: an operator in another
 * zone still picks the settlement's today, whatever their own calendar says.
 * @example settlementToday(Date.parse('2026-11-26T20:00:00Z'), 480) // '2026-11-27'
 */
export function settlementToday(nowMs: number, utcOffsetMinutes: number): string {
  return new Date(nowMs + utcOffsetMinutes * 60_000).toISOString().slice(0, 10)
}

/** Picks the day to settle (today at the latest) and runs it after a confirmation. */
function RunDayForm({ utcOffsetMinutes }: { utcOffsetMinutes: number }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [day, setDay] = useState<string | null>(null)
  const settle = useSettleDay({
    onSuccess: (run) =>
      void message.success(
        t('settlement.started', { day: run.day, status: t(`settlement.statuses.${run.status}`) }),
      ),
  })
  return (
    <Card title={t('settlement.runDay')} style={{ marginBottom: 16 }}>
      <Space wrap>
        <DatePicker
          data-testid="admin-settlement-day"
          // By calendar day: a cell's time of day never decides whether today can be picked.
          disabledDate={(d) =>
            d.format('YYYY-MM-DD') > settlementToday(Date.now(), utcOffsetMinutes)
          }
          onChange={(_, text) => setDay(typeof text === 'string' && text ? text : null)}
          format="YYYY-MM-DD"
        />
        <Popconfirm
          title={t('settlement.confirm', { day })}
          disabled={!day}
          okText={t('settlement.run')}
          cancelText={t('common.cancel')}
          okButtonProps={{ 'data-testid': 'admin-settlement-confirm' }}
          onConfirm={() => day && settle.mutate(day)}
        >
          <Button
            type="primary"
            disabled={!day}
            loading={settle.isPending}
            data-testid="admin-settlement-run"
          >
            {t('settlement.run')}
          </Button>
        </Popconfirm>
        <Typography.Text type="secondary" data-testid="admin-settlement-zone">
          {t('settlement.zoneHint', { zone: utcOffsetLabel(utcOffsetMinutes) })}
        </Typography.Text>
        <Typography.Text type="secondary">{t('settlement.runHint')}</Typography.Text>
      </Space>
    </Card>
  )
}

/** Daily settlement runs with their progress and totals, and running a day by hand. */
export function SettlementPage() {
  const { t } = useTranslation()
  const { search: page, pagination } = usePagedSearch<PageRequest>({})
  const query = useQuery(settlementRunsOptions(page.pageNum, page.pageSize))
  const utcOffsetMinutes = query.data?.utcOffsetMinutes ?? SPEC_UTC_OFFSET_MINUTES

  const amount = (v: string) => groupDigits(v)
  const columns: TableColumnsType<SettlementRun> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    {
      title: t('settlement.dayInZone', { zone: utcOffsetLabel(utcOffsetMinutes) }),
      dataIndex: 'day',
    },
    {
      title: t('settlement.status'),
      dataIndex: 'status',
      render: (s: SettlementRun['status']) => (
        <Tag color={s === 'done' ? 'success' : 'processing'}>{t(`settlement.statuses.${s}`)}</Tag>
      ),
    },
    { title: t('settlement.positions'), dataIndex: 'positions', align: 'right' },
    { title: t('settlement.pledges'), dataIndex: 'pledges', align: 'right' },
    {
      title: t('settlement.consensusHope'),
      dataIndex: 'consensusHope',
      align: 'right',
      render: amount,
    },
    { title: t('settlement.pledgeHope'), dataIndex: 'pledgeHope', align: 'right', render: amount },
    { title: t('settlement.splits'), dataIndex: 'splits', align: 'right' },
    { title: t('settlement.splitHope'), dataIndex: 'splitHope', align: 'right', render: amount },
    { title: t('settlement.nodeUsdt'), dataIndex: 'nodeUsdt', align: 'right', render: amount },
    { title: t('settlement.rankHope'), dataIndex: 'rankHope', align: 'right', render: amount },
    { title: t('settlement.startedAt'), dataIndex: 'startedAt', render: (v) => formatTime(v) },
    { title: t('settlement.finishedAt'), dataIndex: 'finishedAt', render: (v) => formatTime(v) },
  ]

  return (
    <div data-testid="admin-settlement">
      <RunDayForm utcOffsetMinutes={utcOffsetMinutes} />
      <PageTable<SettlementRun>
        query={query}
        loading={query.isPending}
        columns={columns}
        pagination={pagination}
      />
    </div>
  )
}
