import { fireEvent, screen, waitFor } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { showAlert } from './dialog.ts'

describe('alert dialog', () => {
  test('Escape closes it, and the promise resolves', async () => {
    let closed = false
    void showAlert({ content: <p>coming soon</p>, confirmText: 'OK' }).then(() => (closed = true))
    await screen.findByText('coming soon')
    fireEvent.keyDown(document, { key: 'Escape' })
    await waitFor(() => expect(closed).toBe(true))
  })

  test('a tap beside it closes it too', async () => {
    let closed = false
    void showAlert({ content: <p>later</p>, confirmText: 'OK' }).then(() => (closed = true))
    await screen.findByText('later')
    fireEvent.click(document.querySelector('.adm-mask-aria-button, .adm-center-popup-mask')!)
    await waitFor(() => expect(closed).toBe(true))
  })
})
