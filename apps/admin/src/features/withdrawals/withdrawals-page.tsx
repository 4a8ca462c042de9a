import { WITHDRAWAL_STATUSES, type AdminWithdrawal, type WithdrawalStatusCode } from '@hope/api'
import { useQuery } from '@tanstack/react-query'
import {
  App,
  Button,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CopyableCode } from '../../lib/cells.tsx'
import { formatTime, groupDigits } from '../../lib/format.ts'
import { ListSearch } from '../../lib/list-search.tsx'
import { usePagedSearch } from '../../lib/pagination.ts'
import { QueryTable } from '../../lib/query-table.tsx'
import { ReasonField } from '../../lib/reason-field.tsx'
import {
  useBulkReview,
  useReviewWithdrawal,
  withdrawalsOptions,
  type WithdrawalSearch,
} from './api/withdrawals.ts'

/** The zero address: tokens sent there are gone for good. */
const ZERO_ADDRESS = /^0x0{40}$/i

const PENDING: WithdrawalStatusCode = 0
const STATUS_COLORS: Record<WithdrawalStatusCode, string> = {
  0: 'orange',
  1: 'blue',
  2: 'green',
  3: 'red',
  4: 'red',
  5: 'green',
  6: 'default',
}
/** A withdrawal to a new address still waiting out its hold: not approvable yet. */
const onHold = (w: AdminWithdrawal) =>
  w.holdUntil !== null && new Date(w.holdUntil).getTime() > Date.now()

const STATUS_CODES = Object.keys(WITHDRAWAL_STATUSES).map(Number) as WithdrawalStatusCode[]
const ALL = -1

export function WithdrawalStatusTag({ status }: { status: WithdrawalStatusCode }) {
  const { t } = useTranslation()
  return (
    <Tag color={STATUS_COLORS[status]}>
      {t(`withdrawals.statuses.${WITHDRAWAL_STATUSES[status]}`)}
    </Tag>
  )
}

/** The reason is required: the user sees it on their withdrawal record. */
function RejectModal({
  withdrawal,
  onClose,
}: {
  withdrawal: AdminWithdrawal
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<{ reason: string }>()
  const review = useReviewWithdrawal({
    onSuccess: () => {
      void message.success(t('withdrawals.rejected'))
      onClose()
    },
  })
  return (
    <Modal
      open
      title={t('withdrawals.rejectTitle', { id: withdrawal.id })}
      okText={t('withdrawals.reject')}
      okButtonProps={{ danger: true, 'data-testid': 'admin-withdrawal-reject-submit' }}
      confirmLoading={review.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph>
        {t('withdrawals.rejectHint', { amount: withdrawal.amount, fee: withdrawal.fee })}
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={({ reason }) =>
          review.mutate({ id: withdrawal.id, decision: 'reject', reason: reason.trim() })
        }
      >
        <ReasonField>
          <Input.TextArea
            maxLength={200}
            showCount
            rows={3}
            data-testid="admin-withdrawal-reject-reason"
          />
        </ReasonField>
      </Form>
    </Modal>
  )
}

/** Withdrawals to review: pending first by default, one by one or several at once. */
export function WithdrawalsPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { search, refine, pagination } = usePagedSearch<WithdrawalSearch>({
    status: PENDING,
    q: '',
  })
  const query = useQuery(withdrawalsOptions(search))
  const [selected, setSelected] = useState<number[]>([])
  const [rejecting, setRejecting] = useState<AdminWithdrawal | null>(null)
  const approve = useReviewWithdrawal({
    onSuccess: (w) => void message.success(t('withdrawals.approved', { id: w.id })),
  })
  const bulk = useBulkReview({
    onSuccess: ({ done, skipped }) => {
      setSelected([])
      void message.success(
        t('withdrawals.bulkDone', { done: done.length, skipped: skipped.length }),
      )
    },
  })

  const columns: TableColumnsType<AdminWithdrawal> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    {
      title: t('withdrawals.user'),
      dataIndex: 'userName',
      render: (v: string) => <CopyableCode value={v} />,
    },
    {
      title: t('withdrawals.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (v: string) => groupDigits(v),
    },
    { title: t('withdrawals.fee'), dataIndex: 'fee', align: 'right' },
    {
      title: t('withdrawals.address'),
      dataIndex: 'address',
      render: (v: string, w) => (
        <Space size={4} wrap>
          <CopyableCode value={v} />
          {ZERO_ADDRESS.test(v) && (
            <Tooltip title={t('withdrawals.zeroAddressHint')}>
              <Tag color="red">{t('withdrawals.zeroAddress')}</Tag>
            </Tooltip>
          )}
          {w.holdUntil !== null && (
            <Tooltip title={t('withdrawals.firstTimeHint')}>
              <Tag color="orange">{t('withdrawals.firstTime')}</Tag>
            </Tooltip>
          )}
          {w.contractDestination === true && (
            <Tooltip title={t('withdrawals.contractAddressHint')}>
              <Tag color="volcano" data-testid={`admin-withdrawal-contract-${w.id}`}>
                {t('withdrawals.contractAddress')}
              </Tag>
            </Tooltip>
          )}
          {w.contractDestination === null && (
            <Tooltip title={t('withdrawals.contractUnknownHint')}>
              <Tag data-testid={`admin-withdrawal-contract-unknown-${w.id}`}>
                {t('withdrawals.contractUnknown')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: t('withdrawals.status'),
      dataIndex: 'status',
      render: (s: WithdrawalStatusCode, w) => (
        <Space orientation="vertical" size={0}>
          <WithdrawalStatusTag status={s} />
          {s === PENDING && onHold(w) && (
            <Typography.Text
              type="warning"
              style={{ fontSize: 12 }}
              data-testid={`admin-withdrawal-hold-${w.id}`}
            >
              {t('withdrawals.onHold', { time: formatTime(w.holdUntil!) })}
            </Typography.Text>
          )}
          {w.reviewReason && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {w.reviewReason}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('withdrawals.txHash'),
      dataIndex: 'txHash',
      render: (v: string | null) => <CopyableCode value={v} head={10} tail={8} />,
    },
    { title: t('withdrawals.reviewedBy'), dataIndex: 'reviewedBy', render: (v) => v ?? '-' },
    { title: t('common.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, w) =>
        w.status === PENDING ? (
          <Space size={4}>
            <Popconfirm
              title={t('withdrawals.approveConfirm', { amount: w.amount })}
              okText={t('withdrawals.approve')}
              cancelText={t('common.cancel')}
              okButtonProps={{ 'data-testid': 'admin-withdrawal-confirm' }}
              onConfirm={() => approve.mutate({ id: w.id, decision: 'approve' })}
            >
              <Button
                size="small"
                type="primary"
                loading={approve.isPending && approve.variables?.id === w.id}
                disabled={onHold(w)}
                data-testid={`admin-withdrawal-approve-${w.id}`}
              >
                {t('withdrawals.approve')}
              </Button>
            </Popconfirm>
            <Button
              size="small"
              danger
              data-testid={`admin-withdrawal-reject-${w.id}`}
              onClick={() => setRejecting(w)}
            >
              {t('withdrawals.reject')}
            </Button>
          </Space>
        ) : null,
    },
  ]

  return (
    <div data-testid="admin-withdrawals">
      <div className="admin-page-toolbar">
        <Select<number>
          style={{ width: 180 }}
          value={search.status ?? ALL}
          data-testid="admin-withdrawals-status"
          onChange={(v) => {
            setSelected([])
            refine({ status: v === ALL ? undefined : (v as WithdrawalStatusCode) })
          }}
          options={[
            { value: ALL, label: t('withdrawals.allStatuses') },
            ...STATUS_CODES.map((code) => ({
              value: code,
              label: t(`withdrawals.statuses.${WITHDRAWAL_STATUSES[code]}`),
            })),
          ]}
        />
        <ListSearch
          maxWidth={380}
          placeholder={t('withdrawals.searchPlaceholder')}
          testId="admin-withdrawals-search"
          onSearch={(q) => refine({ q })}
        />
        <Popconfirm
          title={t('withdrawals.bulkConfirm', { count: selected.length })}
          okText={t('withdrawals.approve')}
          cancelText={t('common.cancel')}
          okButtonProps={{ 'data-testid': 'admin-withdrawals-bulk-confirm' }}
          disabled={selected.length === 0}
          onConfirm={() => bulk.mutate({ ids: selected, decision: 'approve' })}
        >
          <Button
            type="primary"
            disabled={selected.length === 0}
            loading={bulk.isPending}
            data-testid="admin-withdrawals-bulk-approve"
          >
            {t('withdrawals.bulkApprove', { count: selected.length })}
          </Button>
        </Popconfirm>
      </div>
      <QueryTable<AdminWithdrawal>
        query={query}
        columns={columns}
        dataSource={query.data?.list ?? []}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(Number)),
          getCheckboxProps: (w) => ({ disabled: w.status !== PENDING }),
        }}
        pagination={pagination(query.data)}
      />
      {rejecting && <RejectModal withdrawal={rejecting} onClose={() => setRejecting(null)} />}
    </div>
  )
}
