import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, test } from 'vitest'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { setting } from '../../../test-support/fixtures.ts'
import { ADMIN, renderScreen } from '../../test/render.tsx'
import { SettingsPage } from './settings-page.tsx'

describe('settings', () => {
  test('an edit the server refuses shows its translated message in the dialog', async () => {
    const api = fakeApi({
      'admin/settings': () => ok([setting()]),
      'admin/updateSetting': () => fail(400, 'invalid_params', '参数错误: withdrawFeeRate'),
    })
    renderScreen(<SettingsPage />, { session: ADMIN })
    const user = userEvent.setup()

    await user.click(await screen.findByTestId('admin-setting-edit-withdrawFeeRate'))
    const value = screen.getByTestId('admin-setting-value')
    expect((value as HTMLTextAreaElement).value).toBe('"0.01"')
    await user.clear(value)
    await user.type(value, '"-1"')
    await user.type(screen.getByTestId('admin-setting-reason'), '测试')
    await user.click(screen.getByTestId('admin-setting-save'))

    expect((await screen.findByTestId('admin-setting-error')).textContent).toContain(
      '参数错误: withdrawFeeRate',
    )
    expect(api.callsTo('admin/updateSetting')[0]?.params).toEqual({
      key: 'withdrawFeeRate',
      value: '"-1"',
      reason: '测试',
    })
    // the dialog stays open with the operator's input
    expect((screen.getByTestId('admin-setting-value') as HTMLTextAreaElement).value).toBe('"-1"')
  })

  test('a reason is required before anything is sent; a saved value refreshes the table', async () => {
    let value = '"0.01"'
    const api = fakeApi({
      'admin/settings': () => ok([setting({ value })]),
      'admin/updateSetting': ({ params }) => {
        value = params.value!
        return ok(setting({ value, updatedBy: 'alice' }))
      },
    })
    renderScreen(<SettingsPage />, { session: ADMIN })
    const user = userEvent.setup()

    await user.click(await screen.findByTestId('admin-setting-edit-withdrawFeeRate'))
    await user.clear(screen.getByTestId('admin-setting-value'))
    await user.type(screen.getByTestId('admin-setting-value'), '"0.02"')
    await user.click(screen.getByTestId('admin-setting-save'))
    expect(await screen.findByText('请填写原因')).toBeTruthy()
    expect(api.callsTo('admin/updateSetting')).toHaveLength(0)

    await user.type(screen.getByTestId('admin-setting-reason'), '调整费率')
    await user.click(screen.getByTestId('admin-setting-save'))
    expect(await screen.findByText('"0.02"')).toBeTruthy()
    await waitFor(() => expect(screen.queryByTestId('admin-setting-value')).toBeNull())
  })
})
