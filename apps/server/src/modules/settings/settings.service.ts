import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/pool.ts'
import { settingChanges, settings as settingsTable } from '../../db/schema/index.ts'
import { AppError } from '../../lib/app-error.ts'
import {
  SETTING_SCHEMAS,
  resolveSettings,
  type SettingKey,
  type Settings,
} from './settings.rules.ts'

const CACHE_MS = 5_000

export interface SettingsService {
  get(): Promise<Settings>
  set<K extends SettingKey>(key: K, value: unknown, changedBy: string): Promise<Settings>
  /** Drops the cached values after a change written elsewhere (an operator's, with its audit). */
  invalidate(): void
}

/** Settings read through a short cache so several processes pick up a change within seconds. */
export function createSettingsService(db: Db): SettingsService {
  let cached: { at: number; value: Settings } | null = null

  async function get(): Promise<Settings> {
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.value
    // Read jsonb as text: drizzle's jsonb mapping re-parses a string value ('0.5' → 0.5).
    const rows = await db
      .select({ key: settingsTable.key, json: sql<string>`${settingsTable.value}::text` })
      .from(settingsTable)
    const stored = rows.map((r) => ({ key: r.key, value: JSON.parse(r.json) as unknown }))
    cached = { at: Date.now(), value: resolveSettings(stored) }
    return cached.value
  }

  async function set<K extends SettingKey>(
    key: K,
    value: unknown,
    changedBy: string,
  ): Promise<Settings> {
    const parsed = SETTING_SCHEMAS[key].safeParse(value)
    if (!parsed.success) throw new AppError('invalid_params', { detail: key })
    await db.transaction(async (tx) => {
      const [old] = await tx
        .select({ value: settingsTable.value })
        .from(settingsTable)
        .where(eq(settingsTable.key, key))
        .for('update')
      await tx
        .insert(settingsTable)
        .values({ key, value: parsed.data, updatedBy: changedBy })
        .onConflictDoUpdate({
          target: settingsTable.key,
          set: { value: parsed.data, updatedBy: changedBy, updatedAt: new Date() },
        })
      await tx
        .insert(settingChanges)
        .values({ key, oldValue: old?.value ?? null, newValue: parsed.data, changedBy })
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
