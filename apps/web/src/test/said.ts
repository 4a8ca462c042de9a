import { screen } from '@testing-library/react'
import { expect, vi } from 'vitest'
import { showToast } from '../lib/ui/toast.ts'

/**
 * A problem is said once, in one place: a toast, or a text on the screen, never both (the test
 * file mocks lib/ui/toast.ts). Clears the toasts counted so far, so a later step counts afresh.
 */
export function expectSaidOnce(text: string): void {
  const toasts = vi.mocked(showToast).mock.calls.filter(([said]) => said === text).length
  const shown = screen.queryAllByText(text, { exact: true }).length
  expect(
    { toasts, shown, total: toasts + shown },
    `"${text}": ${toasts} toast(s), ${shown} time(s) on screen`,
  ).toMatchObject({ total: 1 })
  vi.mocked(showToast).mockClear()
}
