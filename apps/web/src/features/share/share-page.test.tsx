import type { UserInfo } from '@hope/api'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { loadNamespace } from '../../lib/i18n/i18n.ts'
import { queryClient, QueryScope } from '../../lib/api/query-scope.tsx'
import { useSession } from '../../lib/store.ts'
import { showToast } from '../../lib/ui/toast.ts'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { composePoster, wrapText } from './poster.ts'
import { SharePage } from './share-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))
vi.mock('./poster.ts', async (importActual) => ({
  ...(await importActual<typeof import('./poster.ts')>()),
  composePoster: vi.fn(),
}))

const me: UserInfo = {
  id: 7,
  userName: '0x1234567890abcdef1234567890abcdef12345678',
  nickName: 'HOPE-345678',
  image: '',
  referralCode: 'K7Q2M9',
  level: 1,
  gamePoints: '0',
  invitationLink:
    'http://localhost:8080/#/invite?pusername=0x1234567890abcdef1234567890abcdef12345678',
  location: 2,
  isRobot: false,
}

function renderShare() {
  render(
    <QueryScope>
      <SharePage />
    </QueryScope>,
  )
}

describe('share page', () => {
  beforeAll(() => loadNamespace('share'))
  beforeEach(() => {
    queryClient.clear()
    useSession.setState({ userInfo: null })
  })
  afterEach(() => vi.unstubAllGlobals())

  test('shows my invitation code and link from the server and copies each', async () => {
    fakeApi({ 'user/getUserInfo': () => ok(me) })
    const writeText = vi.fn(() => Promise.resolve())
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
    renderShare()
    const code = within(await screen.findByRole('group', { name: '邀请码' }))
    const link = within(screen.getByRole('group', { name: '邀请链接' }))
    expect(code.getByText('K7Q2M9')).toBeTruthy()
    expect(link.getByText(me.invitationLink)).toBeTruthy()
    await userEvent.click(link.getByRole('button', { name: '复制' }))
    expect(writeText).toHaveBeenLastCalledWith(me.invitationLink)
    await userEvent.click(code.getByRole('button', { name: '复制' }))
    expect(writeText).toHaveBeenLastCalledWith('K7Q2M9')
    expect(showToast).toHaveBeenCalledWith('复制成功', 'success')
  })

  test('a failed load offers a retry that loads again', async () => {
    let answer = fail(500, 'internal_error')
    const api = fakeApi({ 'user/getUserInfo': () => answer })
    renderShare()
    const retry = await screen.findByRole(
      'button',
      { name: '加载失败，点击重试' },
      { timeout: 3000 },
    )
    answer = ok(me) as typeof answer
    await userEvent.click(retry)
    expect(await screen.findByText('K7Q2M9')).toBeTruthy()
    expect(api.callsTo('user/getUserInfo').length).toBeGreaterThanOrEqual(2)
  })

  test('the poster carries my link and code and can be saved', async () => {
    vi.mocked(composePoster).mockResolvedValueOnce('data:image/png;base64,AAAA')
    fakeApi({ 'user/getUserInfo': () => ok(me) })
    renderShare()
    await userEvent.click(await screen.findByRole('button', { name: '生成海报' }))
    const poster = await screen.findByAltText('活动海报')
    expect(poster.getAttribute('src')).toBe('data:image/png;base64,AAAA')
    expect(vi.mocked(composePoster)).toHaveBeenLastCalledWith(
      expect.objectContaining({ link: me.invitationLink, code: 'K7Q2M9', scan: '扫码注册' }),
    )
    expect(screen.getByRole('button', { name: '保存图片' })).toBeTruthy()
  })

  test('a poster that cannot be drawn says so and can be tried again', async () => {
    vi.mocked(composePoster).mockRejectedValueOnce(new Error('canvas unavailable'))
    vi.spyOn(console, 'error').mockImplementation(() => {})
    fakeApi({ 'user/getUserInfo': () => ok(me) })
    renderShare()
    await userEvent.click(await screen.findByRole('button', { name: '生成海报' }))
    expect((await screen.findByRole('alert')).textContent).toBe('海报生成失败，请重试')
    expect(screen.queryByAltText('活动海报')).toBeNull()
    expect(screen.getByRole('button', { name: '生成海报' })).toBeTruthy()
  })
})

describe('poster text wrapping', () => {
  const measure = (text: string) => text.length * 10

  test('breaks Chinese anywhere and other scripts at spaces, within the width', () => {
    expect(wrapText(measure, '加入社区共同成长', 40)).toEqual(['加入社区', '共同成长'])
    expect(wrapText(measure, 'Join the HOPE community', 100)).toEqual([
      'Join the',
      'HOPE',
      'community',
    ])
  })

  test('a single word longer than the width stays whole on its own line', () => {
    expect(wrapText(measure, 'consensus', 30)).toEqual(['consensus'])
  })
})
