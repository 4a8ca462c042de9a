import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
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
        <div>
          <input
            value={amount}
            onChange={(event) => flow.edit(() => setAmount(event.target.value))}
            aria-label="Amount"
          />
          <button type="button" onClick={() => flow.open({ amount })}>
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

const amountInput = () => screen.getByRole('textbox', { name: 'Amount' }) as HTMLInputElement
const button = (name: string) => screen.getByRole('button', { name })

async function openSheet(amount: string) {
  await userEvent.type(amountInput(), amount)
  await userEvent.click(button('Next'))
  return screen.findByTestId('pay-confirm-sheet')
}

/** The sheet's close button (antd-mobile names it in the app's language). */
const closeSheet = () => fireEvent.click(button('关闭'))

const unanswered = () => new ApiError({ code: 0, msg: '', kind: 'network' })
const refused = () => new ApiError({ code: 1, msg: 'no', kind: 'http' })

describe('MoneyFlow', () => {
  test('the form opens the sheet of its quote; closing it goes back to the form as it was', async () => {
    const send = vi.fn()
    renderScreen({ send })
    const sheet = within(await openSheet('12'))
    expect(sheet.getByRole('heading', { name: 'Pay?' })).toBeTruthy()
    expect(screen.getByTestId('pay-confirm-amount').textContent).toBe('12 USDT')
    expect(sheet.getByText('To').nextElementSibling?.textContent).toBe('shop')
    closeSheet()
    await waitFor(() => expect(screen.queryByTestId('pay-confirm-sheet')).toBeNull())
    expect(amountInput().value).toBe('12')
    expect(send).not.toHaveBeenCalled()
  })

  test('a confirmation sends once, then the result replaces the form; again is an empty form', async () => {
    let answer!: (result: { paid: string }) => void
    const send = vi.fn(() => new Promise<{ paid: string }>((resolve) => (answer = resolve)))
    renderScreen({ send })
    await openSheet('12')
    const confirm = button('Pay')
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    expect(send).toHaveBeenCalledTimes(1)
    expect(send).toHaveBeenCalledWith({ amount: '12' }, expect.stringMatching(/^[0-9a-f]{32}$/))
    answer({ paid: '12' })
    expect((await screen.findByTestId('pay-result-amount')).textContent).toBe('12 USDT')
    expect(screen.queryByRole('textbox', { name: 'Amount' })).toBeNull()
    await userEvent.click(button('Again'))
    expect(amountInput().value).toBe('')
  })

  test('no answer keeps the sheet open with a retry under the same key', async () => {
    const send = vi.fn().mockRejectedValueOnce(unanswered()).mockResolvedValueOnce({ paid: '12' })
    renderScreen({ send })
    await openSheet('12')
    fireEvent.click(button('Pay'))
    expect((await screen.findByRole('alert')).textContent).toBe('No answer')
    // The confirmation has become the retry.
    expect(screen.queryByRole('button', { name: 'Pay' })).toBeNull()
    fireEvent.click(button('重试'))
    await screen.findByTestId('pay-result')
    expect(send.mock.calls[1]![1]).toBe(send.mock.calls[0]![1])
  })

  test('closing the sheet after no answer or a refusal says what was shown may be stale', async () => {
    const send = vi.fn().mockRejectedValueOnce(unanswered()).mockRejectedValueOnce(refused())
    const onStale = vi.fn()
    renderScreen({ send, onStale })
    await openSheet('12')
    fireEvent.click(button('Pay'))
    expect((await screen.findByRole('alert')).textContent).toBe('No answer')
    closeSheet()
    expect(onStale).toHaveBeenCalledTimes(1)

    // A refusal closes the sheet itself, back to the form; the next opening is a new request.
    await userEvent.click(button('Next'))
    fireEvent.click(await screen.findByRole('button', { name: 'Pay' }))
    await waitFor(() => expect(screen.queryByTestId('pay-confirm-sheet')).toBeNull())
    expect(amountInput()).toBeTruthy()
    expect(onStale).toHaveBeenCalledTimes(2)
  })

  test('inline, the confirmation takes the place of the form', async () => {
    const send = vi.fn().mockResolvedValue({ paid: '5' })
    renderScreen({ send, inline: true })
    await openSheet('5')
    expect(screen.queryByRole('textbox', { name: 'Amount' })).toBeNull()
    fireEvent.click(button('Pay'))
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
