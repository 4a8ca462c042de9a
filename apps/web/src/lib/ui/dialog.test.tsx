import { fireEvent } from '@testing-library/react'
import { describe, expect, test, vi } from 'vitest'
import { showAlert } from './dialog.ts'

const dialog = vi.hoisted(() => ({
  alert: vi.fn((_props: Record<string, unknown>) => new Promise<void>(() => {})),
  clear: vi.fn(),
}))
vi.mock('antd-mobile/es/components/dialog', () => ({ default: dialog }))

describe('alert dialog', () => {
  test('a tap beside it closes it: the dialog is opened to close on the mask', async () => {
    void showAlert({ content: 'later', confirmText: 'OK' })
    await vi.waitFor(() => expect(dialog.alert).toHaveBeenCalled())
    expect(dialog.alert.mock.lastCall![0]).toMatchObject({
      closeOnMaskClick: true,
      content: 'later',
    })
  })

  test('Escape closes it, and the promise resolves', async () => {
    let closed = false
    void showAlert({ content: 'soon', confirmText: 'OK' }).then(() => (closed = true))
    await vi.waitFor(() =>
      expect(dialog.alert.mock.lastCall![0]).toMatchObject({ content: 'soon' }),
    )
    fireEvent.keyDown(document, { key: 'Escape' })
    await vi.waitFor(() => expect(closed).toBe(true))
    expect(dialog.clear).toHaveBeenCalled()
  })
})
