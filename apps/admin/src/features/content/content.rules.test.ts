import { describe, expect, test } from 'vitest'
import { planTranslations, textsOf } from './content.rules.ts'

describe('content rules', () => {
  test('saves new and changed versions, removes cleared ones, leaves the rest', () => {
    const before = {
      zhcn: { title: '公告' },
      en: { title: 'Notice', summary: 's' },
      ko: { title: '공지' },
      ja: { title: 'お知らせ' },
    }
    const after = {
      zhcn: { title: '新公告' },
      en: { title: 'Notice', summary: 's ' },
      ko: { title: '공지!' },
      ja: { title: '  ' },
      th: { title: 'ประกาศ' },
      vi: { title: '', summary: 'orphan' },
    }
    expect(planTranslations(before, after)).toEqual({ save: ['ko', 'th'], remove: ['ja'] })
  })

  test('a new item has nothing to remove', () => {
    expect(planTranslations({}, { en: { title: 'A' } })).toEqual({ save: ['en'], remove: [] })
  })

  test('texts are trimmed and keep only the fields of their kind', () => {
    expect(textsOf({ title: ' A ' })).toEqual({ title: 'A' })
    expect(textsOf({ title: 'A', summary: ' s', content: '' })).toEqual({
      title: 'A',
      summary: 's',
      content: '',
    })
  })
})
