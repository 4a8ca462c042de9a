import { LEVELS, NODE_TYPES, type AdminUser } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import { Button, Space, Tag, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { groupDigits } from '../../lib/format.ts'
import { ListSearch } from '../../lib/list-search.tsx'
import { usePagedSearch } from '../../lib/pagination.ts'
import { canCall } from '../../lib/permissions.ts'
import { PageTable } from '../../lib/query-table.tsx'
import { useSession } from '../../lib/session.ts'
import { AdjustBalanceModal } from './adjust-balance-modal.tsx'
import { usersOptions, type UserSearch } from './api/users.ts'
import { FlagRobotModal, GrantShareholderModal } from './member-flag-modals.tsx'
import { UserTreeDrawer } from './user-tree-drawer.tsx'

type DialogKind = 'adjust' | 'robot' | 'grant' | 'tree'
type Dialog = { kind: DialogKind; user: AdminUser } | null

/** Users by address, nickname or code, with balance adjustments, flags and the downline tree. */
export function UsersPage() {
  const { t } = useTranslation()
  const session = useSession()
  const role = session?.role ?? 'support'
  const { search, refine, pagination } = usePagedSearch<UserSearch>({ q: '' })
  const query = useQuery(usersOptions(search))
  const [dialog, setDialog] = useState<Dialog>(null)
  const close = () => setDialog(null)

  const columns: TableColumnsType<AdminUser> = [
    {
      title: t('users.address'),
      dataIndex: 'userName',
      render: (v: string) => (
        <Typography.Text className="admin-mono" copyable>
          {v}
        </Typography.Text>
      ),
    },
    { title: t('users.nickname'), dataIndex: 'nickName' },
    { title: t('users.code'), dataIndex: 'referralCode' },
    {
      title: t('users.level'),
      dataIndex: 'level',
      render: (v: number) => t(`levels.${LEVELS[v] ?? 'none'}`),
    },
    {
      title: t('users.inviter'),
      dataIndex: 'inviter',
      render: (v: string | null) =>
        v ? <Typography.Text className="admin-mono">{v}</Typography.Text> : '-',
    },
    {
      title: t('users.team'),
      key: 'team',
      render: (_, u) => t('users.teamValue', { direct: u.directPeople, team: u.teamPeople }),
    },
    {
      title: t('users.robot.column'),
      dataIndex: 'isRobot',
      render: (v: boolean) => (v ? <Tag color="volcano">{t('users.robot.yes')}</Tag> : '-'),
    },
    {
      title: t('users.nodes'),
      dataIndex: 'nodes',
      render: (nodes: AdminUser['nodes']) =>
        nodes.length === 0
          ? '-'
          : nodes.map((n) => (
              <Tag key={n.type} color={n.source === 'granted' ? 'purple' : 'blue'}>
                {t(`nodes.${NODE_TYPES[n.type - 1] ?? 'shareholder'}`)}
                {n.source === 'granted' ? ` · ${t('users.granted')}` : ''}
              </Tag>
            )),
    },
    {
      title: 'USDT',
      key: 'usdt',
      align: 'right',
      render: (_, u) => groupDigits(u.balances.usdt),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, u) => {
        /** The button that opens `kind`'s dialog on this user. */
        const opens = (kind: DialogKind, testId: string, label: string, link = false) => (
          <Button
            size="small"
            {...(link ? { type: 'link' as const } : {})}
            data-testid={`admin-user-${testId}-${u.userName}`}
            onClick={() => setDialog({ kind, user: u })}
          >
            {label}
          </Button>
        )
        return (
          <Space size={4} wrap>
            {canCall(role, 'admin/credit') && opens('adjust', 'credit', t('users.adjust.open'))}
            {canCall(role, 'admin/flagRobot') &&
              opens('robot', 'robot', u.isRobot ? t('users.robot.unflag') : t('users.robot.flag'))}
            {canCall(role, 'admin/grantShareholder') &&
              opens('grant', 'grant', t('users.grant.open'))}
            {opens('tree', 'tree', t('users.tree.open'), true)}
          </Space>
        )
      },
    },
  ]

  return (
    <div data-testid="admin-users">
      <div className="admin-page-toolbar">
        <ListSearch
          maxWidth={420}
          placeholder={t('users.searchPlaceholder')}
          testId="admin-users-search"
          onSearch={(q) => refine({ q })}
        />
      </div>
      <PageTable<AdminUser> query={query} columns={columns} pagination={pagination} />
      {dialog?.kind === 'adjust' && <AdjustBalanceModal user={dialog.user} onClose={close} />}
      {dialog?.kind === 'robot' && <FlagRobotModal user={dialog.user} onClose={close} />}
      {dialog?.kind === 'grant' && <GrantShareholderModal user={dialog.user} onClose={close} />}
      {dialog?.kind === 'tree' && <UserTreeDrawer user={dialog.user} onClose={close} />}
    </div>
  )
}
