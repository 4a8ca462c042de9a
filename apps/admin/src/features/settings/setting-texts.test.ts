import { describe, expect, test } from 'vitest'
import { SETTING_SCHEMAS } from '../../../../server/src/modules/settings/settings.rules.ts'
import en from '../../locales/en.json'
import zhcn from '../../locales/zhcn.json'
import { SETTING_UNITS } from './setting-units.ts'

describe('setting texts', () => {
  test('every setting the server knows has a name and a sentence in both console languages', () => {
    const keys = Object.keys(SETTING_SCHEMAS).sort()
    expect(Object.keys(zhcn.settings.meta).sort()).toEqual(keys)
    expect(Object.keys(en.settings.meta).sort()).toEqual(keys)
    for (const unit of Object.values(SETTING_UNITS))
      expect(Object.keys(zhcn.settings.units), unit).toContain(unit)
  })
})
