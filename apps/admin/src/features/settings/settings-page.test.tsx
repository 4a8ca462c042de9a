import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, test } from 'vitest'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { setting } from '../../../test-support/fixtures.ts'
import { ADMIN, renderScreen } from '../../test/render.tsx'
import { SettingsPage } from './settings-page.tsx'

/** The labels of the edit and save buttons (antd spaces out two Chinese characters). */
const EDIT = /^编\s?辑$/
const SAVE = /^保\s?存$/

describe('settings', () => {
  test('each setting shows its name, what it is, its unit and range in the console language', async () => {
    fakeApi({ 'admin/settings': () => ok([setting()]) })
    renderScreen(<SettingsPage />, { session: ADMIN })
    const row = (await screen.findByText('提现手续费率')).closest('tr')!
    expect(row.textContent).toContain('withdrawFeeRate')
    expect(row.textContent).toContain('提现按金额比例收取的手续费。')
    expect(row.textContent).toContain('比例（1 = 100%）')
    expect(row.textContent).toContain('0 – 1')
  })

  test('a value out of range is refused with why, before the server is asked', async () => {
    const api = fakeApi({ 'admin/settings': () => ok([setting()]) })
    renderScreen(<SettingsPage />, { session: ADMIN })
    const user = userEvent.setup()

    await user.click(await screen.findByRole('button', { name: EDIT }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog.textContent).toContain('修改 提现手续费率')
    const value = screen.getByRole('textbox', { name: '当前值' })
    await user.clear(value)
    await user.type(value, '"1.5"')
    await user.type(screen.getByLabelText('原因'), '测试')
    await user.click(screen.getByText(SAVE))
    expect(await screen.findByText('不能大于 1')).toBeTruthy()
    await user.clear(value)
    await user.type(value, '"-1"')
    expect(await screen.findByText('必须是小数，例如 0.005')).toBeTruthy()
    expect(api.callsTo('admin/updateSetting')).toHaveLength(0)
  })

  test('a refusal of the server says what the setting takes; the dialog keeps the input', async () => {
    const api = fakeApi({
      'admin/settings': () => ok([setting()]),
      'admin/updateSetting': () => fail(400, 'setting_invalid', '设置值不符合要求，未作任何更改'),
    })
    renderScreen(<SettingsPage />, { session: ADMIN })
    const user = userEvent.setup()

    await user.click(await screen.findByText(EDIT))
    const value = screen.getByLabelText('当前值')
    expect((value as HTMLTextAreaElement).value).toBe('"0.01"')
    await user.clear(value)
    await user.type(value, '"0.5"')
    await user.type(screen.getByLabelText('原因'), '测试')
    await user.click(screen.getByText(SAVE))

    expect(
      await screen.findByText('设置值不符合要求，未作任何更改。取值范围：0 – 1。'),
    ).toBeTruthy()
    expect(api.callsTo('admin/updateSetting')[0]?.params).toEqual({
      key: 'withdrawFeeRate',
      value: '"0.5"',
      reason: '测试',
    })
    expect((screen.getByLabelText('当前值') as HTMLTextAreaElement).value).toBe('"0.5"')
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

    await user.click(await screen.findByText(EDIT))
    await user.clear(screen.getByLabelText('当前值'))
    await user.type(screen.getByLabelText('当前值'), '"0.02"')
    await user.click(screen.getByText(SAVE))
    expect(await screen.findByText('请填写原因')).toBeTruthy()
    expect(api.callsTo('admin/updateSetting')).toHaveLength(0)

    await user.type(screen.getByLabelText('原因'), '调整费率')
    await user.click(screen.getByText(SAVE))
    expect(await screen.findByText('"0.02"')).toBeTruthy()
    await waitFor(() => expect(screen.queryByLabelText('当前值')).toBeNull())
  })
})
