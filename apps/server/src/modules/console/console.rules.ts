import type { AdminSignInDay, SettingRange } from '@hope/api'
import { z } from 'zod'
import {
  SETTING_SCHEMAS,
  isSettingKey,
  type SettingKey,
  type Settings,
} from '../settings/settings.rules.ts'

/**
 * The moment the local day of `nowMs` began, in a time zone `offsetMinutes` east of UTC (the
 * settlement's zone, so "today" on the dashboard is the business day).
 */
export function localDayStart(nowMs: number, offsetMinutes: number): Date {
  const offsetMs = offsetMinutes * 60_000
  const local = nowMs + offsetMs
  return new Date(local - (((local % 86_400_000) + 86_400_000) % 86_400_000) - offsetMs)
}

/** The days the console shows sign-ins per day over, today included. */
export const SIGN_IN_DAYS_SHOWN = 30

/**
 * The local days [from, from + `days` days) (`from` a local midnight, `offsetMinutes` east of
 * UTC), each with its sign-ins from `counted` (a day absent there had none) and the share of
 * them signed with the legacy message, rounded to four places (null without sign-ins).
 * @example signInDays([{ day: '2026-03-10', siwe: 3, legacy: 1 }], from, 2, 480)
 *   // [{ day: '2026-03-10', siwe: 3, legacy: 1, legacyShare: 0.25 }, { day: '2026-03-11', siwe: 0, legacy: 0, legacyShare: null }]
 */
export function signInDays(
  counted: readonly { day: string; siwe: number; legacy: number }[],
  from: Date,
  days: number,
  offsetMinutes: number,
): AdminSignInDay[] {
  const byDay = new Map(counted.map((c) => [c.day, c]))
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(from.getTime() + i * 86_400_000 + offsetMinutes * 60_000)
      .toISOString()
      .slice(0, 10)
    const { siwe = 0, legacy = 0 } = byDay.get(day) ?? {}
    const total = siwe + legacy
    return {
      day,
      siwe,
      legacy,
      legacyShare: total === 0 ? null : Math.round((legacy / total) * 10_000) / 10_000,
    }
  })
}

/** A LIKE pattern matching `text` literally at the start (prefix) or anywhere (contains). */
export function likePattern(text: string, where: 'prefix' | 'contains'): string {
  const literal = text.replace(/[\\%_]/g, (c) => `\\${c}`)
  return where === 'prefix' ? `${literal}%` : `%${literal}%`
}

export type ParsedSetting<K extends SettingKey = SettingKey> =
  | { ok: true; key: K; value: Settings[K] }
  | { ok: false; reason: 'setting_unknown' | 'setting_invalid' }

/**
 * An operator's new value, given as JSON text (`0.005`, `["100","300"]`, `true`, `"a@b.c"`),
 * checked against the setting's schema. A text setting may also be given bare (`a@b.c`,
 * `0.005` for a decimal kept as text): when the JSON reading does not fit, the raw text is tried.
 */
export function parseSettingValue(key: string, text: string): ParsedSetting {
  if (!isSettingKey(key)) return { ok: false, reason: 'setting_unknown' }
  const schema = SETTING_SCHEMAS[key]
  const candidates: unknown[] = []
  try {
    candidates.push(JSON.parse(text))
  } catch {
    // not JSON: only the raw text is a candidate
  }
  candidates.push(text)
  for (const candidate of candidates) {
    const parsed = schema.safeParse(candidate)
    if (parsed.success) return { ok: true, key, value: parsed.data as Settings[typeof key] }
  }
  return { ok: false, reason: 'setting_invalid' }
}

/** JSON text in one spelling (jsonb prints `["1", "2"]`, the console compares `["1","2"]`). */
export const jsonText = (value: unknown): string => JSON.stringify(value)

interface JsonSchema {
  type?: string
  enum?: unknown[]
  minimum?: number
  maximum?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  items?: JsonSchema
}

function rangeOf(json: JsonSchema): SettingRange {
  if (json.enum) return { kind: 'choice', options: json.enum.map(String) }
  const bounds = {
    ...(json.minimum !== undefined ? { min: String(json.minimum) } : {}),
    ...(json.maximum !== undefined ? { max: String(json.maximum) } : {}),
  }
  switch (json.type) {
    case 'integer':
    case 'number':
      return { kind: 'integer', ...bounds }
    case 'boolean':
      return { kind: 'boolean' }
    case 'array': {
      const exact = json.minItems !== undefined && json.minItems === json.maxItems
      return {
        kind: 'list',
        ...(exact ? { length: json.minItems! } : {}),
        ...(!exact && json.maxItems !== undefined ? { maxItems: json.maxItems } : {}),
        ...(json.items ? { item: rangeOf(json.items) } : {}),
      }
    }
    case 'string':
      // A decimal kept as text says its bounds (settings.rules.ts `decimal`).
      if (json.maximum !== undefined) return { kind: 'decimal', ...bounds }
      return {
        kind: 'text',
        ...(json.maxLength !== undefined ? { maxLength: json.maxLength } : {}),
      }
    default:
      return { kind: 'text' }
  }
}

/**
 * What values a setting takes, read from its schema, for the console to say (range and kind).
 * @example settingRange('newAddressHoldHours') // { kind: 'integer', min: '0', max: '720' }
 */
export function settingRange(key: SettingKey): SettingRange {
  return rangeOf(z.toJSONSchema(SETTING_SCHEMAS[key], { unrepresentable: 'any' }) as JsonSchema)
}
