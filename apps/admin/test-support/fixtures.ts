import type { AdminDashboard, AdminSetting, AdminUser, AdminWithdrawal, Page } from '@hope/api'

export const page = <T>(list: T[], pageSize = 20): Page<T> => ({
  list,
  total: list.length,
  pageNum: 1,
  pageSize,
})

export const dashboard = (over: Partial<AdminDashboard> = {}): AdminDashboard => ({
  users: { total: 12, today: 2, robots: 1 },
  deposits: { count: 3, usdt: '1500.000000', today: '100' },
  withdrawals: { pending: 2, pendingUsdt: '300.5', approvedToday: 1 },
  lastSettlement: null,
  ledger: { ok: true, checkedAt: '2026-01-02T03:04:05Z', problems: [] },
  alarms: [],
  signIns: { days: 7, siwe: 40, legacy: 3, legacyAccepted: true },
  ...over,
})

export const withdrawal = (over: Partial<AdminWithdrawal> = {}): AdminWithdrawal => ({
  id: 7,
  userName: '0x1111111111111111111111111111111111111111',
  amount: '120.5',
  fee: '1',
  address: '0x2222222222222222222222222222222222222222',
  status: 0,
  txHash: null,
  reviewReason: null,
  reviewedBy: null,
  holdUntil: null,
  contractDestination: false,
  walletSigned: false,
  createdAt: '2026-01-02T03:04:05Z',
  updatedAt: '2026-01-02T03:04:05Z',
  ...over,
})

export const setting = (over: Partial<AdminSetting> = {}): AdminSetting => ({
  key: 'withdrawFeeRate',
  value: '"0.01"',
  defaultValue: '"0.01"',
  updatedAt: null,
  updatedBy: null,
  range: { kind: 'decimal', min: '0', max: '1' },
  ...over,
})

export const adminUser = (over: Partial<AdminUser> = {}): AdminUser => ({
  id: 3,
  userName: '0x3333333333333333333333333333333333333333',
  nickName: 'Bob',
  referralCode: 'BOB123',
  level: 2,
  inviter: '0x1111111111111111111111111111111111111111',
  location: 1,
  directPeople: 2,
  teamPeople: 5,
  isRobot: false,
  nodes: [{ type: 1, source: 'granted' }],
  balances: {
    usdt: '1234.500000000000000001',
    community: '0',
    shareholder: '0',
    node: '0',
    split: '0',
  },
  createdAt: '2026-01-02T03:04:05Z',
  ...over,
})
