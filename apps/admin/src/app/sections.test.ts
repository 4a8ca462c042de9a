import { describe, expect, test } from 'vitest'
import { sectionsFor } from './sections.ts'

describe('sections', () => {
  test('each role sees its own part of the console', () => {
    expect(sectionsFor('finance')).toEqual([
      'dashboard',
      'users',
      'withdrawals',
      'deposits',
      'settlement',
    ])
    expect(sectionsFor('content')).toEqual(['dashboard', 'content'])
    expect(sectionsFor('support')).toEqual(['dashboard', 'users', 'chat'])
    expect(sectionsFor('admin')).toEqual([
      'dashboard',
      'users',
      'withdrawals',
      'deposits',
      'settlement',
      'content',
      'chat',
      'settings',
      'audit',
    ])
  })
})
