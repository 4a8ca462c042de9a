import { describe, expect, test } from 'vitest'
import { chooseBaseBackup, retentionPlan, type BaseBackup } from './backup.ts'

const backup = (id: string, finishedAt: string, startWal: string): BaseBackup => ({
  id,
  dir: `/b/${id}`,
  startedAt: finishedAt,
  finishedAt,
  startWal,
  startLsn: '0/0',
  stopLsn: '0/0',
  bytes: 1,
})
const monday = backup('mon', '2026-11-23T02:00:00.000Z', '000000010000000000000010')
const wednesday = backup('wed', '2026-11-25T02:00:00.000Z', '000000010000000000000020')
const friday = backup('fri', '2026-11-27T02:00:00.000Z', '000000020000000000000030')
const all = [monday, wednesday, friday]

describe('chooseBaseBackup', () => {
  test('latest is the newest base backup', () => {
    expect(chooseBaseBackup(all, 'latest')).toBe(friday)
  })

  test('a moment restores from the newest backup finished by then, its own moment included', () => {
    expect(chooseBaseBackup(all, new Date('2026-11-26T12:00:00Z'))).toBe(wednesday)
    expect(chooseBaseBackup(all, new Date(wednesday.finishedAt))).toBe(wednesday)
    expect(chooseBaseBackup(all, new Date('2026-12-01T00:00:00Z'))).toBe(friday)
  })

  test('before the first backup, or with none, the answer says why', () => {
    expect(() => chooseBaseBackup(all, new Date('2026-11-22T00:00:00Z'))).toThrow(
      'No base backup finished by 2026-11-22T00:00:00.000Z; the oldest finished at 2026-11-23T02:00:00.000Z.',
    )
    expect(() => chooseBaseBackup([], 'latest')).toThrow(/npm run backup/)
  })
})

describe('retentionPlan', () => {
  const wal = [
    '00000001000000000000000F.gz',
    '000000010000000000000010.gz',
    '000000010000000000000010.00000028.backup.gz',
    '00000001000000000000001F.gz',
    '000000010000000000000020.gz',
    '00000002.history.gz',
    '000000020000000000000030.gz',
  ]

  test('drops backups older than the kept days and the WAL only they needed', () => {
    const plan = retentionPlan(all, wal, 3, new Date('2026-11-27T12:00:00Z'))
    expect(plan.backups).toEqual([monday])
    expect(plan.walFiles).toEqual([
      '00000001000000000000000F.gz',
      '000000010000000000000010.gz',
      '000000010000000000000010.00000028.backup.gz',
      '00000001000000000000001F.gz',
    ])
  })

  test('the newest backup always stays, and timeline history files stay', () => {
    const plan = retentionPlan(all, wal, 1, new Date('2027-06-01T00:00:00Z'))
    expect(plan.backups).toEqual([monday, wednesday])
    expect(plan.walFiles).not.toContain('00000002.history.gz')
    expect(plan.walFiles).not.toContain('000000020000000000000030.gz')
  })

  test('without a base backup nothing goes', () => {
    expect(retentionPlan([], wal, 1, new Date())).toEqual({ backups: [], walFiles: [] })
  })
})
