import type pg from 'pg'
import { clientOr, inTransaction, type Queryable } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import {
  SETTING_SCHEMAS,
  resolveSettings,
  type SettingKey,
  type Settings,
} from './settings.rules.ts'
import * as repo from './settings.repository.ts'

const CACHE_MS = 5_000

export interface SettingChange {
  key: SettingKey
  /** Already checked against the key's schema. */
  value: unknown
  changedBy: string
  /** The operator's reason; null for a change the app makes itself. */
  reason: string | null
}

export interface SettingsService {
  get(): Promise<Settings>
  set<K extends SettingKey>(key: K, value: unknown, changedBy: string): Promise<Settings>
  /**
   * The one writer of `settings`: writes a checked value and its change record in the caller's
   * transaction, one change of a key at a time. The value before, as JSON text (null: unset).
   */
  write(q: Queryable, change: SettingChange): Promise<string | null>
  /** Drops the cached values after a change written elsewhere (an operator's, with its audit). */
  invalidate(): void
}

/** Settings read through a short cache so several processes pick up a change within seconds. */
export function createSettingsService(pool: pg.Pool): SettingsService {
  let cached: { at: number; value: Settings } | null = null

  async function get(): Promise<Settings> {
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.value
    const { q, inTransaction: inside } = clientOr(pool)
    const value = resolveSettings(await repo.listSettings(q))
    // Read inside a transaction, the values may be its own uncommitted change: not kept.
    if (!inside) cached = { at: Date.now(), value }
    return value
  }

  async function set<K extends SettingKey>(
    key: K,
    value: unknown,
    changedBy: string,
  ): Promise<Settings> {
    const parsed = SETTING_SCHEMAS[key].safeParse(value)
    if (!parsed.success) throw new AppError('invalid_params', { detail: key })
    await inTransaction(pool, (q) => write(q, { key, value: parsed.data, changedBy, reason: null }))
    cached = null
    return get()
  }

  async function write(q: Queryable, change: SettingChange): Promise<string | null> {
    const oldJson = await repo.lockSetting(q, change.key)
    await repo.upsertSetting(q, change.key, change.value, change.changedBy)
    await repo.insertSettingChange(q, {
      key: change.key,
      oldJson,
      newValue: change.value,
      changedBy: change.changedBy,
      reason: change.reason,
    })
    return oldJson
  }

  return {
    get,
    set,
    write,
    invalidate: () => {
      cached = null
    },
  }
}
