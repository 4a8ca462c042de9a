import { render } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { Words } from './words.tsx'

describe('Words', () => {
  test('keeps each marked word whole, with a break opportunity only between them', () => {
    const { container } = render(<Words text={'ประวัติ\u200bการสเตก'} />)
    expect([...container.querySelectorAll('.word')].map((w) => w.textContent)).toEqual([
      'ประวัติ',
      'การสเตก',
    ])
    expect(container.querySelectorAll('wbr')).toHaveLength(1)
  })

  test('leaves text without marks to the browser', () => {
    const { container } = render(<Words text="Staking records" />)
    expect(container.innerHTML).toBe('Staking records')
  })
})
