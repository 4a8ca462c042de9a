import InfiniteScroll from 'antd-mobile/es/components/infinite-scroll'
import Popup from 'antd-mobile/es/components/popup'
import { render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { i18n, setLanguage } from '../i18n/i18n.ts'

afterEach(async () => {
  await setLanguage('zhcn')
})

describe("antd-mobile's own texts", () => {
  test('follow the app language: the end of a list, the close button and the layer behind a sheet', async () => {
    const view = () => (
      <>
        <InfiniteScroll hasMore={false} loadMore={async () => {}} />
        <Popup visible showCloseButton onMaskClick={() => {}}>
          sheet
        </Popup>
      </>
    )
    const { rerender } = render(view())
    expect(await screen.findByText('没有更多了')).toBeTruthy()
    expect(screen.getByRole('button', { name: '关闭' })).toBeTruthy()

    for (const [lang, noMore, close] of [
      ['en', 'No more', 'Close'],
      ['ko', '더 이상 없음', '닫기'],
      ['th', 'ไม่มีเพิ่มเติม', 'ปิด'],
    ] as const) {
      await setLanguage(lang)
      expect(i18n.language).toBe(lang)
      rerender(view())
      await waitFor(() => expect(screen.getByText(noMore)).toBeTruthy())
      expect(screen.getAllByRole('button', { name: close }).length).toBeGreaterThan(0)
    }
  })
})
