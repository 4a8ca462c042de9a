import { describe, expect, test } from 'vitest'
import {
  checkNewItem,
  checkRemovableLang,
  mergeBase,
  mergeText,
  schoolVideo,
} from './content.rules.ts'

const reasonOf = (work: () => unknown) => {
  try {
    work()
    return null
  } catch (e) {
    return (e as { reason: string }).reason
  }
}
const EMPTY = { title: '', summary: '', content: '' }

describe('content rules', () => {
  test('a save without texts leaves the language version alone', () => {
    expect(mergeText({ title: 'a', summary: 'b', content: 'c' }, {}, EMPTY)).toBeNull()
    expect(mergeText(undefined, { title: undefined }, EMPTY)).toBeNull()
  })

  test('given texts replace those of the version; the rest stays', () => {
    expect(
      mergeText({ title: 'a', summary: 'b', content: 'c' }, { content: 'new' }, EMPTY),
    ).toEqual({ title: 'a', summary: 'b', content: 'new' })
    expect(mergeText(undefined, { title: 'T', content: 'x' }, EMPTY)).toEqual({
      title: 'T',
      summary: '',
      content: 'x',
    })
  })

  test('a new language version needs a title', () => {
    expect(reasonOf(() => mergeText(undefined, { content: 'x' }, EMPTY))).toBe(
      'content_title_required',
    )
  })

  test('a new item starts in Chinese, with a title; the Chinese version stays', () => {
    expect(reasonOf(() => checkNewItem('en', 'Title'))).toBe('content_zhcn_required')
    expect(reasonOf(() => checkNewItem('zhcn', undefined))).toBe('content_title_required')
    expect(reasonOf(() => checkNewItem('zhcn', '标题'))).toBeNull()
    expect(reasonOf(() => checkRemovableLang('zhcn'))).toBe('content_zhcn_required')
    expect(reasonOf(() => checkRemovableLang('th'))).toBeNull()
  })

  test('given base fields replace the stored ones', () => {
    expect(
      mergeBase({ sort: 1, link: '/a', published: true }, { sort: 0, link: undefined }),
    ).toEqual({ sort: 0, link: '/a', published: true })
  })

  test('a video needs something to play; an article drops it', () => {
    expect(schoolVideo('article', 'https://v.example/a.mp4')).toBeNull()
    expect(schoolVideo('video', 'https://v.example/a.mp4')).toBe('https://v.example/a.mp4')
    expect(reasonOf(() => schoolVideo('video', null))).toBe('invalid_params')
  })
})
