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
import { useState, type ReactNode } from 'react'
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

type ReviewMutation = ReturnType<typeof useReviewWithdrawal>
type BulkReviewMutation = ReturnType<typeof useBulkReview>

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

/** A mark beside a withdrawal; hovering it says why it matters. */
function Mark({
  hint,
  color,
  testId,
  children,
}: {
  hint: string
  color?: string
  testId?: string
  children: ReactNode
}) {
  return (
    <Tooltip title={hint}>
      <Tag color={color} data-testid={testId}>
        {children}
      </Tag>
    </Tooltip>
  )
}

/**
 * The destination, with what a reviewer checks before approving: the zero address, a first
 * payout there, contract code (or that the chain could not say), and whether the member's
 * wallet signed the request (or that it was made before this was recorded).
 */
function DestinationCell({ withdrawal: w }: { withdrawal: AdminWithdrawal }) {
  const { t } = useTranslation()
  return (
    <Space size={4} wrap>
      <CopyableCode value={w.address} />
      {ZERO_ADDRESS.test(w.address) && (
        <Mark color="red" hint={t('withdrawals.zeroAddressHint')}>
          {t('withdrawals.zeroAddress')}
        </Mark>
      )}
      {w.holdUntil !== null && (
        <Mark color="orange" hint={t('withdrawals.firstTimeHint')}>
          {t('withdrawals.firstTime')}
        </Mark>
      )}
      {w.contractDestination === true && (
        <Mark
          color="volcano"
          hint={t('withdrawals.contractAddressHint')}
          testId={`admin-withdrawal-contract-${w.id}`}
        >
          {t('withdrawals.contractAddress')}
        </Mark>
      )}
      {w.contractDestination === null && (
        <Mark
          hint={t('withdrawals.contractUnknownHint')}
          testId={`admin-withdrawal-contract-unknown-${w.id}`}
        >
          {t('withdrawals.contractUnknown')}
        </Mark>
      )}
      {w.walletSigned === true && (
        <Mark color="green" hint={t('withdrawals.walletSignedHint')}>
          {t('withdrawals.walletSigned')}
        </Mark>
      )}
      {w.walletSigned === null && (
        <Mark hint={t('withdrawals.signatureUnknownHint')}>
          {t('withdrawals.signatureUnknown')}
        </Mark>
      )}
    </Space>
  )
}

/** The status, with a pending request's hold and the reason it was reviewed with. */
function StatusCell({ withdrawal: w }: { withdrawal: AdminWithdrawal }) {
  const { t } = useTranslation()
  return (
    <Space orientation="vertical" size={0}>
      <WithdrawalStatusTag status={w.status} />
      {w.status === PENDING && onHold(w) && (
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
  )
}

/** Approve (once confirmed; not while on hold) or reject a pending request; nothing otherwise. */
function ReviewActions({
  withdrawal: w,
  approve,
  onReject,
}: {
  withdrawal: AdminWithdrawal
  approve: ReviewMutation
  onReject: (w: AdminWithdrawal) => void
}) {
  const { t } = useTranslation()
  if (w.status !== PENDING) return null
  return (
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
        onClick={() => onReject(w)}
      >
        {t('withdrawals.reject')}
      </Button>
    </Space>
  )
}

/** The review list's columns; `actions` fills the last one. */
function useWithdrawalColumns(
  actions: (w: AdminWithdrawal) => ReactNode,
): TableColumnsType<AdminWithdrawal> {
  const { t } = useTranslation()
  return [
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
      render: (_, w) => <DestinationCell withdrawal={w} />,
    },
    {
      title: t('withdrawals.status'),
      dataIndex: 'status',
      render: (_, w) => <StatusCell withdrawal={w} />,
    },
    {
      title: t('withdrawals.txHash'),
      dataIndex: 'txHash',
      render: (v: string | null) => <CopyableCode value={v} head={10} tail={8} />,
    },
    { title: t('withdrawals.reviewedBy'), dataIndex: 'reviewedBy', render: (v) => v ?? '-' },
    { title: t('common.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatTime(v) },
    { title: t('common.actions'), key: 'actions', fixed: 'right', render: (_, w) => actions(w) },
  ]
}

/** Which status to list; undefined for all of them. */
function StatusFilter({
  value,
  onChange,
}: {
  value: WithdrawalStatusCode | undefined
  onChange: (status: WithdrawalStatusCode | undefined) => void
}) {
  const { t } = useTranslation()
  return (
    <Select<number>
      style={{ width: 180 }}
      value={value ?? ALL}
      data-testid="admin-withdrawals-status"
      onChange={(v) => onChange(v === ALL ? undefined : (v as WithdrawalStatusCode))}
      options={[
        { value: ALL, label: t('withdrawals.allStatuses') },
        ...STATUS_CODES.map((code) => ({
          value: code,
          label: t(`withdrawals.statuses.${WITHDRAWAL_STATUSES[code]}`),
        })),
      ]}
    />
  )
}

/** Approves the selected requests at once, once confirmed. */
function BulkApprove({ selected, bulk }: { selected: number[]; bulk: BulkReviewMutation }) {
  const { t } = useTranslation()
  return (
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
  const columns = useWithdrawalColumns((w) => (
    <ReviewActions withdrawal={w} approve={approve} onReject={setRejecting} />
  ))

  return (
    <div data-testid="admin-withdrawals">
      <div className="admin-page-toolbar">
        <StatusFilter
          value={search.status}
          onChange={(status) => {
            setSelected([])
            refine({ status })
          }}
        />
        <ListSearch
          maxWidth={380}
          placeholder={t('withdrawals.searchPlaceholder')}
          testId="admin-withdrawals-search"
          onSearch={(q) => refine({ q })}
        />
        <BulkApprove selected={selected} bulk={bulk} />
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
