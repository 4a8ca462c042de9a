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
      'reserves',
    ])
    expect(sectionsFor('content')).toEqual(['dashboard', 'content'])
    expect(sectionsFor('support')).toEqual(['dashboard', 'users', 'chat'])
    expect(sectionsFor('admin')).toEqual([
      'dashboard',
      'users',
      'withdrawals',
      'deposits',
      'settlement',
      'reserves',
      'content',
      'chat',
      'settings',
      'audit',
    ])
  })
})
