import type { AdminBanner } from '@hope/api'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, test } from 'vitest'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { ADMIN, renderScreen } from '../../test/render.tsx'
import { ContentPage } from './content-page.tsx'

const IMAGE = `/uploads/${'a'.repeat(64)}.png`
const banner: AdminBanner = {
  id: 5,
  image: IMAGE,
  link: '/stake',
  sort: 1,
  published: true,
  updatedAt: '2026-01-02T03:04:05Z',
  translations: { zhcn: { title: '活动' }, en: { title: 'Event' }, ja: { title: 'イベント' } },
}

const IMAGE_URL = '上传图片，或填写 https:// 地址'

/** The editor's version in `lang`, once on show (the others stay drawn, hidden). */
const openPane = async (editor: HTMLElement, lang: string | RegExp) =>
  within(await within(editor).findByRole('tabpanel', { name: lang }))

describe('content', () => {
  test('saving a banner sends Chinese with the shared fields, then changed and cleared languages', async () => {
    const api = fakeApi({
      'admin/banners': () => ok([banner]),
      'admin/saveBanner': () => ok(banner),
      'admin/deleteTranslation': () => ok(null),
    })
    renderScreen(<ContentPage />, { session: ADMIN })
    const user = userEvent.setup()

    await user.click(await screen.findByText(/^编\s?辑$/))
    const editor = await screen.findByTestId('admin-content-editor')
    await user.click(within(editor).getByText('English'))
    const en = (await openPane(editor, /English/)).getByLabelText('标题')
    await user.clear(en)
    await user.type(en, 'Big event')
    await user.click(within(editor).getByText('日本語'))
    await user.click((await openPane(editor, /日本語/)).getByText('删除此语言版本'))
    await user.click(screen.getByText(/^保\s?存$/))

    await waitFor(() => expect(api.callsTo('admin/deleteTranslation')).toHaveLength(1))
    expect(api.callsTo('admin/saveBanner').map((c) => c.params)).toEqual([
      {
        id: '5',
        lang: 'zhcn',
        title: '活动',
        image: IMAGE,
        link: '/stake',
        sort: '1',
        published: 'true',
      },
      { id: '5', lang: 'en', title: 'Big event' },
    ])
    expect(api.callsTo('admin/deleteTranslation')[0]?.params).toEqual({
      kind: 'banner',
      id: '5',
      lang: 'ja',
    })
  })

  test('a new banner needs its Chinese title; the server’s refusal shows in the editor', async () => {
    const api = fakeApi({
      'admin/banners': () => ok([]),
      'admin/saveBanner': () => fail(400, 'invalid_params', '参数错误: image'),
    })
    renderScreen(<ContentPage />, { session: ADMIN })
    const user = userEvent.setup()

    await user.click(await screen.findByText('新建轮播图'))
    // An address is pasted, as operators do: one input event, whatever the machine's load.
    await user.click(screen.getByPlaceholderText(IMAGE_URL))
    await user.paste('https://cdn.example/a.png')
    await waitFor(() =>
      expect((screen.getByPlaceholderText(IMAGE_URL) as HTMLInputElement).value).toBe(
        'https://cdn.example/a.png',
      ),
    )
    await user.click(screen.getByText(/^保\s?存$/))
    expect(await screen.findByText('中文标题必填')).toBeTruthy()
    expect(api.callsTo('admin/saveBanner')).toHaveLength(0)

    const editor = screen.getByTestId('admin-content-editor')
    await user.type((await openPane(editor, /中文/)).getByLabelText('标题'), '新活动')
    await user.click(screen.getByText(/^保\s?存$/))
    expect(await screen.findByText('参数错误: image')).toBeTruthy()
    expect(api.callsTo('admin/saveBanner')[0]?.params).toMatchObject({
      lang: 'zhcn',
      title: '新活动',
      image: 'https://cdn.example/a.png',
    })
    expect(api.callsTo('admin/saveBanner')[0]?.params.id).toBeUndefined()
  })

  test('an image is uploaded as the raw body and previewed', async () => {
    const api = fakeApi({
      'admin/banners': () => ok([]),
      'admin/upload': () =>
        ok({ url: IMAGE, type: 'image/png', width: 2, height: 2, bytes: 4, variants: [] }),
    })
    renderScreen(<ContentPage />, { session: ADMIN })
    const user = userEvent.setup()
    await user.click(await screen.findByText('新建轮播图'))

    const input = document.querySelector<HTMLInputElement>('input[type=file]')!
    await user.upload(
      input,
      new File([new Uint8Array([1, 2, 3, 4])], 'a.png', { type: 'image/png' }),
    )

    await waitFor(() => expect(api.callsTo('admin/upload')).toHaveLength(1))
    const call = api.callsTo('admin/upload')[0]!
    expect(call.headers['Content-Type']).toBe('image/png')
    expect(call.headers.token).toBe(ADMIN.token)
    const [, init] = api.fetchMock.mock.calls.find(([u]) => String(u).includes('admin/upload'))!
    expect(init?.body).toBeInstanceOf(File)
    await waitFor(() =>
      expect((screen.getByPlaceholderText(IMAGE_URL) as HTMLInputElement).value).toBe(IMAGE),
    )
  })
})
