import { CheckCircleTwoTone, CloseCircleTwoTone, ReloadOutlined } from '@ant-design/icons'
import type { AdminAlarm, AdminDashboard, AdminSignInDay } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Row,
  Skeleton,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { formatTime, groupDigits } from '../../lib/format.ts'
import { LoadError } from '../../lib/load-error.tsx'
import { canCall } from '../../lib/permissions.ts'
import { useSession } from '../../lib/session.ts'
import { dashboardOptions, signInsByDayOptions, useCheckLedger } from './api/dashboard.ts'
import { ResolveAlarmModal } from './resolve-alarm-modal.tsx'

function LedgerCard({ ledger }: { ledger: AdminDashboard['ledger'] }) {
  const { t } = useTranslation()
  const session = useSession()
  const check = useCheckLedger()
  return (
    <Card
      title={t('dashboard.ledger')}
      extra={
        session && canCall(session.role, 'admin/checkLedger') ? (
          <Button
            icon={<ReloadOutlined />}
            loading={check.isPending}
            onClick={() => check.mutate()}
            data-testid="admin-ledger-check"
          >
            {t('dashboard.checkNow')}
          </Button>
        ) : null
      }
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('dashboard.ledgerStatus')}>
          {ledger.checkedAt === null ? (
            <Tag>{t('dashboard.neverChecked')}</Tag>
          ) : ledger.ok ? (
            <Tag icon={<CheckCircleTwoTone twoToneColor="#52c41a" />} color="success">
              {t('dashboard.ledgerOk')}
            </Tag>
          ) : (
            <Tag icon={<CloseCircleTwoTone twoToneColor="#ff4d4f" />} color="error">
              {t('dashboard.ledgerProblems', { count: ledger.problems.length })}
            </Tag>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('dashboard.checkedAt')}>
          {formatTime(ledger.checkedAt)}
        </Descriptions.Item>
      </Descriptions>
      {ledger.problems.length > 0 && (
        <Alert
          type="error"
          title={
            <ul className="admin-ledger-problems">
              {ledger.problems.map((p, i) => (
                <li key={i} className="admin-mono">
                  {p}
                </li>
              ))}
            </ul>
          }
        />
      )}
    </Card>
  )
}

/** A share from 0 to 1 as a percentage with one decimal, e.g. `0.0512` → `5.1%`; `—` for none. */
const percent = (share: number | null): string =>
  share === null ? '—' : `${(share * 100).toFixed(1)}%`

/**
 * Sign-ins per day of the last 30 days, newest first: the legacy share falling to nothing is
 * the sign that `legacyLoginMessage` can be turned off.
 */
function SignInsByDay() {
  const { t } = useTranslation()
  const query = useQuery(signInsByDayOptions())
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />
  if (!query.data) return <Skeleton active paragraph={{ rows: 3 }} />
  const { days, list } = query.data
  const newestFirst = [...list].reverse()
  return (
    <div data-testid="admin-sign-ins-by-day">
      <Typography.Text strong>{t('dashboard.signInsByDay', { days })}</Typography.Text>
      {list.every((d) => d.legacyShare === null) ? (
        <Typography.Paragraph type="secondary">
          {t('dashboard.signInsByDayEmpty', { days })}
        </Typography.Paragraph>
      ) : (
        <Table<AdminSignInDay>
          size="small"
          rowKey="day"
          dataSource={newestFirst}
          pagination={false}
          scroll={{ y: 240 }}
          columns={[
            { title: t('dashboard.signInDay'), dataIndex: 'day' },
            { title: t('dashboard.signInsSiwe'), dataIndex: 'siwe', align: 'right' },
            { title: t('dashboard.signInsLegacy'), dataIndex: 'legacy', align: 'right' },
            {
              title: t('dashboard.legacyShare'),
              dataIndex: 'legacyShare',
              align: 'right',
              render: (share: number | null) => (
                <span style={share ? { color: '#fa8c16' } : {}}>{percent(share)}</span>
              ),
            },
          ]}
        />
      )}
    </div>
  )
}

/**
 * How users signed in lately: Sign-In with Ethereum names this site, the legacy message does
 * not (a phishing page could have it signed). When no one uses the legacy one, turn off
 * `legacyLoginMessage` in the settings.
 */
function SignInsCard({ signIns }: { signIns: AdminDashboard['signIns'] }) {
  const { t } = useTranslation()
  return (
    <Card title={t('dashboard.signIns', { days: signIns.days })} data-testid="admin-sign-ins">
      <Row gutter={[16, 12]}>
        <Col span={12}>
          <Statistic title={t('dashboard.signInsSiwe')} value={signIns.siwe} />
        </Col>
        <Col span={12}>
          <Statistic
            title={t('dashboard.signInsLegacy')}
            value={signIns.legacy}
            styles={{ content: signIns.legacy > 0 ? { color: '#fa8c16' } : {} }}
          />
        </Col>
        <Col span={24}>
          <Tag color={signIns.legacyAccepted ? 'warning' : 'success'}>
            {t(signIns.legacyAccepted ? 'dashboard.legacyOn' : 'dashboard.legacyOff')}
          </Tag>
        </Col>
        <Col span={24}>
          <SignInsByDay />
        </Col>
      </Row>
    </Card>
  )
}

/**
 * What the jobs could not settle by themselves, e.g. a payout whose nonce was taken. Those who
 * may close alarms (finance, admin) get a button on each: the chain scan's stay until someone
 * does.
 */
function AlarmsAlert({
  alarms,
  onResolve,
}: {
  alarms: AdminDashboard['alarms']
  onResolve: (alarm: AdminAlarm) => void
}) {
  const { t } = useTranslation()
  const session = useSession()
  if (!alarms.length) return null
  const canResolve = !!session && canCall(session.role, 'admin/resolveAlarm')
  return (
    <Alert
      type="error"
      showIcon
      data-testid="admin-alarms"
      style={{ marginBottom: 16 }}
      title={t('dashboard.alarms', { count: alarms.length })}
      description={
        <ul className="admin-ledger-problems">
          {alarms.map((a) => (
            <li key={a.id}>
              {formatTime(a.raisedAt)} · {a.message}
              {canResolve && (
                <Button
                  type="link"
                  size="small"
                  onClick={() => onResolve(a)}
                  data-testid={`admin-alarm-resolve-${a.id}`}
                >
                  {t('dashboard.resolveAlarm.action')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      }
    />
  )
}

/**
 * A USDT amount on a row of its own: six decimals and thousands make it wider than a third of
 * a card, and two side by side ran into each other.
 */
function UsdtFigure({ title, amount }: { title: string; amount: string }) {
  return (
    <Col span={24}>
      <Statistic
        className="admin-usdt-figure"
        title={title}
        value={groupDigits(amount)}
        data-testid="admin-usdt-figure"
      />
    </Col>
  )
}

/** The first screen: what needs attention today and whether the ledger adds up. */
export function DashboardPage() {
  const { t } = useTranslation()
  const query = useQuery(dashboardOptions())
  // Kept here, not in the banner: the dialog stays open with its error when the list it came
  // from is read again and the alarm is gone (someone else closed it).
  const [resolving, setResolving] = useState<AdminAlarm | null>(null)
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />
  if (!query.data) return <Skeleton active data-testid="admin-dashboard" />
  const d = query.data
  const run = d.lastSettlement
  return (
    <div data-testid="admin-dashboard">
      <AlarmsAlert alarms={d.alarms} onResolve={setResolving} />
      {resolving && <ResolveAlarmModal alarm={resolving} onClose={() => setResolving(null)} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card title={t('dashboard.users')}>
            <Row>
              <Col span={8}>
                <Statistic title={t('dashboard.total')} value={d.users.total} />
              </Col>
              <Col span={8}>
                <Statistic title={t('dashboard.today')} value={d.users.today} />
              </Col>
              <Col span={8}>
                <Statistic title={t('dashboard.robots')} value={d.users.robots} />
              </Col>
            </Row>
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card title={t('dashboard.deposits')} data-testid="admin-dashboard-deposits">
            <Row gutter={[16, 12]}>
              <Col span={24}>
                <Statistic title={t('dashboard.count')} value={d.deposits.count} />
              </Col>
              <UsdtFigure title={t('dashboard.totalUsdt')} amount={d.deposits.usdt} />
              <UsdtFigure title={t('dashboard.todayUsdt')} amount={d.deposits.today} />
            </Row>
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card title={t('dashboard.withdrawals')} data-testid="admin-dashboard-withdrawals">
            <Row gutter={[16, 12]}>
              <Col span={12}>
                <Statistic
                  title={t('dashboard.pending')}
                  value={d.withdrawals.pending}
                  styles={{ content: d.withdrawals.pending > 0 ? { color: '#fa8c16' } : {} }}
                />
              </Col>
              <Col span={12}>
                <Statistic
                  title={t('dashboard.approvedToday')}
                  value={d.withdrawals.approvedToday}
                />
              </Col>
              <UsdtFigure title={t('dashboard.pendingUsdt')} amount={d.withdrawals.pendingUsdt} />
            </Row>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('dashboard.lastSettlement')}>
            {run ? (
              <Descriptions column={2} size="small">
                <Descriptions.Item label={t('settlement.day')}>{run.day}</Descriptions.Item>
                <Descriptions.Item label={t('settlement.status')}>
                  <Tag color={run.status === 'done' ? 'success' : 'processing'}>
                    {t(`settlement.statuses.${run.status}`)}
                  </Tag>
                </Descriptions.Item>
                <Descriptions.Item label={t('settlement.consensusHope')}>
                  {groupDigits(run.consensusHope)}
                </Descriptions.Item>
                <Descriptions.Item label={t('settlement.nodeUsdt')}>
                  {groupDigits(run.nodeUsdt)}
                </Descriptions.Item>
                <Descriptions.Item label={t('settlement.startedAt')}>
                  {formatTime(run.startedAt)}
                </Descriptions.Item>
                <Descriptions.Item label={t('settlement.finishedAt')}>
                  {formatTime(run.finishedAt)}
                </Descriptions.Item>
              </Descriptions>
            ) : (
              t('dashboard.noSettlement')
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <LedgerCard ledger={d.ledger} />
        </Col>
        <Col xs={24} lg={12}>
          <SignInsCard signIns={d.signIns} />
        </Col>
      </Row>
    </div>
  )
}
