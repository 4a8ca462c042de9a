import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { MemoryRouter } from 'react-router'
import { describe, expect, test, vi } from 'vitest'
import { ApiError } from '../api/request.ts'
import { MoneyFlow } from './flow.tsx'

interface Quote {
  amount: string
}

/** A form of one amount on the flow: the button opens the sheet of what was typed. */
function Screen({
  send,
  onStale,
  inline,
}: {
  send: (quote: Quote, key: string) => Promise<{ paid: string }>
  onStale?: () => void
  inline?: boolean
}) {
  const [amount, setAmount] = useState('')
  return (
    <MoneyFlow<Quote, { paid: string }>
      testId="pay"
      texts={{ confirmTitle: 'Pay?', confirm: 'Pay', networkFailed: 'No answer', success: 'Paid' }}
      send={send}
      onDone={() => setAmount('')}
      onStale={onStale}
      inline={inline}
      confirm={(quote) => ({
        amount: `${quote.amount} USDT`,
        rows: [{ label: 'To', value: 'shop', testId: 'pay-confirm-to' }],
      })}
      result={(result, flow) => ({
        amount: `${result.paid} USDT`,
        rows: [],
        log: { to: '/log', label: 'Log', testId: 'pay-result-log' },
        doneLabel: 'Again',
        onDone: flow.reset,
      })}
    >
      {(flow) => (
        <div data-testid="pay-form">
          <input
            value={amount}
            onChange={(event) => flow.edit(() => setAmount(event.target.value))}
            data-testid="pay-amount-input"
          />
          <button type="button" onClick={() => flow.open({ amount })} data-testid="pay-submit">
            Next
          </button>
        </div>
      )}
    </MoneyFlow>
  )
}

function renderScreen(props: Parameters<typeof Screen>[0]) {
  render(
    <MemoryRouter>
      <Screen {...props} />
    </MemoryRouter>,
  )
}

async function openSheet(amount: string) {
  await userEvent.type(screen.getByTestId('pay-amount-input'), amount)
  await userEvent.click(screen.getByTestId('pay-submit'))
  return screen.findByTestId('pay-confirm-sheet')
}

const closeSheet = () =>
  fireEvent.click(document.querySelector<HTMLElement>('.adm-popup-close-icon')!)

const unanswered = () => new ApiError({ code: 0, msg: '', kind: 'network' })
const refused = () => new ApiError({ code: 1, msg: 'no', kind: 'http' })

describe('MoneyFlow', () => {
  test('the form opens the sheet of its quote; closing it goes back to the form as it was', async () => {
    const send = vi.fn()
    renderScreen({ send })
    const sheet = await openSheet('12')
    expect(sheet.querySelector('h2')?.textContent).toBe('Pay?')
    expect(screen.getByTestId('pay-confirm-amount').textContent).toBe('12 USDT')
    expect(screen.getByTestId('pay-confirm-to').textContent).toBe('shop')
    closeSheet()
    await waitFor(() => expect(screen.queryByTestId('pay-confirm-sheet')).toBeNull())
    expect((screen.getByTestId('pay-amount-input') as HTMLInputElement).value).toBe('12')
    expect(send).not.toHaveBeenCalled()
  })

  test('a confirmation sends once, then the result replaces the form; again is an empty form', async () => {
    let answer!: (result: { paid: string }) => void
    const send = vi.fn(() => new Promise<{ paid: string }>((resolve) => (answer = resolve)))
    renderScreen({ send })
    await openSheet('12')
    fireEvent.click(screen.getByTestId('pay-confirm'))
    fireEvent.click(screen.getByTestId('pay-confirm'))
    expect(send).toHaveBeenCalledTimes(1)
    expect(send).toHaveBeenCalledWith({ amount: '12' }, expect.stringMatching(/^[0-9a-f]{32}$/))
    answer({ paid: '12' })
    expect((await screen.findByTestId('pay-result-amount')).textContent).toBe('12 USDT')
    expect(screen.queryByTestId('pay-form')).toBeNull()
    await userEvent.click(screen.getByTestId('pay-result-back'))
    expect((screen.getByTestId('pay-amount-input') as HTMLInputElement).value).toBe('')
  })

  test('no answer keeps the sheet open with a retry under the same key', async () => {
    const send = vi.fn().mockRejectedValueOnce(unanswered()).mockResolvedValueOnce({ paid: '12' })
    renderScreen({ send })
    await openSheet('12')
    fireEvent.click(screen.getByTestId('pay-confirm'))
    expect((await screen.findByTestId('pay-network-failed')).textContent).toBe('No answer')
    expect(screen.getByTestId('pay-confirm').textContent).toBe('重试')
    fireEvent.click(screen.getByTestId('pay-confirm'))
    await screen.findByTestId('pay-result')
    expect(send.mock.calls[1]![1]).toBe(send.mock.calls[0]![1])
  })

  test('closing the sheet after no answer or a refusal says what was shown may be stale', async () => {
    const send = vi.fn().mockRejectedValueOnce(unanswered()).mockRejectedValueOnce(refused())
    const onStale = vi.fn()
    renderScreen({ send, onStale })
    await openSheet('12')
    fireEvent.click(screen.getByTestId('pay-confirm'))
    await screen.findByTestId('pay-network-failed')
    closeSheet()
    expect(onStale).toHaveBeenCalledTimes(1)

    // A refusal closes the sheet itself, back to the form; the next opening is a new request.
    await userEvent.click(screen.getByTestId('pay-submit'))
    fireEvent.click(await screen.findByTestId('pay-confirm'))
    await waitFor(() => expect(screen.queryByTestId('pay-confirm-sheet')).toBeNull())
    expect(screen.getByTestId('pay-form')).toBeTruthy()
    expect(onStale).toHaveBeenCalledTimes(2)
  })

  test('inline, the confirmation takes the place of the form', async () => {
    const send = vi.fn().mockResolvedValue({ paid: '5' })
    renderScreen({ send, inline: true })
    await openSheet('5')
    expect(screen.queryByTestId('pay-form')).toBeNull()
    fireEvent.click(screen.getByTestId('pay-confirm'))
    expect((await screen.findByTestId('pay-result-amount')).textContent).toBe('5 USDT')
  })

  test('Escape closes the confirmation as its close button does, except while it sends', async () => {
    let answer!: (result: { paid: string }) => void
    const send = vi.fn(() => new Promise<{ paid: string }>((resolve) => (answer = resolve)))
    renderScreen({ send })
    await openSheet('7')
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByTestId('pay-confirm-sheet')).toBeNull())
    expect(send).not.toHaveBeenCalled()

    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Pay' }))
    await userEvent.keyboard('{Escape}')
    expect(screen.getByTestId('pay-confirm-sheet')).toBeTruthy()
    answer({ paid: '7' })
    expect((await screen.findByTestId('pay-result-amount')).textContent).toBe('7 USDT')
  })
})
