import { describe, expect, test } from 'vitest'
import { sectionsFor } from './sections.ts'

describe('sections', () => {
  test('each role sees its own part of the console', () => {
    const finance = ['dashboard', 'users', 'withdrawals', 'deposits', 'settlement', 'reserves']
    expect(sectionsFor('finance')).toEqual(finance)
    expect(sectionsFor('content')).toEqual(['dashboard', 'content'])
    expect(sectionsFor('support')).toEqual(['dashboard', 'users', 'chat'])
    // The admin sees what finance sees, and more.
    expect(sectionsFor('admin')).toEqual([...finance, 'content', 'chat', 'settings', 'audit'])
  })
})
