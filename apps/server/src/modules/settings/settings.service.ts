import type pg from 'pg'
import { clientOr, inTransaction } from '../../db/transaction.ts'
import { AppError } from '../../lib/app-error.ts'
import {
  SETTING_SCHEMAS,
  resolveSettings,
  type SettingKey,
  type Settings,
} from './settings.rules.ts'
import * as repo from './settings.repository.ts'

const CACHE_MS = 5_000

export interface SettingsService {
  get(): Promise<Settings>
  set<K extends SettingKey>(key: K, value: unknown, changedBy: string): Promise<Settings>
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
    await inTransaction(pool, async (q) => {
      const oldJson = await repo.lockSetting(q, key)
      await repo.upsertSetting(q, key, parsed.data, changedBy)
      await repo.insertSettingChange(q, { key, oldJson, newValue: parsed.data, changedBy })
    })
    cached = null
    return get()
  }

  return {
    get,
    set,
    invalidate: () => {
      cached = null
    },
  }
}
