import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { queryClient } from '../../lib/api/query-scope.tsx'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { balanceList } from '../../../test-support/fixtures.ts'
import { HomePage } from './home-page.tsx'

vi.mock('../../lib/ui/toast.ts', () => ({ showToast: vi.fn() }))

function renderHome() {
  render(
    <MemoryRouter initialEntries={['/']}>
      <Routes>
        <Route path="/" element={<HomePage />} />
        <Route path="/assets" element={<p>assets</p>} />
      </Routes>
    </MemoryRouter>,
  )
}

describe('home balance summary', () => {
  afterEach(() => queryClient.clear())

  test('shows the total value and the available USDT, and opens the assets', async () => {
    fakeApi({
      'userAccount/balance': () =>
        ok(
          balanceList(
            { usdt: { balance: '1500', available: '1234.5', pending: '265.5' } },
            { totalValueUsdt: '1650.050000' },
          ),
        ),
      'main/news': () => ok({ list: [], total: 0, pageNum: 1, pageSize: 3 }),
    })
    renderHome()
    const card = screen.getByTestId('home-balance')
    expect(card.getAttribute('aria-busy') ?? card.querySelector('[aria-busy]')).toBeTruthy()
    const total = await screen.findByText('总资产 (USDT)')
    expect(total.nextElementSibling?.textContent).toBe('1,650.05')
    expect(screen.getByText('USDT 可用').nextElementSibling?.textContent).toBe('1,234.5')
    await userEvent.click(screen.getByRole('button', { name: /^总资产 \(USDT\)/ }))
    expect(await screen.findByText('assets')).toBeTruthy()
  })
})
