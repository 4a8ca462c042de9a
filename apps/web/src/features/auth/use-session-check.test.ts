import type { UserInfo } from '@hope/api'
import { renderHook } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { useSession } from '../../lib/store.ts'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { prefetchSession, useSessionCheck } from './use-session-check.ts'

const ADDRESS = '0x5b38da6a701c568545dcfcb03fcb875f56beddc4'

const user: UserInfo = {
  id: 2,
  userName: ADDRESS,
  nickName: 'Alice',
  image: '',
  referralCode: 'ALICE1',
  level: 1,
  gamePoints: '0',
  invitationLink: '',
  location: 1,
  isRobot: false,
}

function signedInAs(token: string) {
  window.localStorage.setItem('token', token)
  useSession.setState({ token, address: ADDRESS })
}

describe('prefetchSession', () => {
  test('the session check takes the answer asked for as the page started', async () => {
    signedInAs('kept-token')
    const api = fakeApi({
      'user/getUserInfo': (call) =>
        call.headers.token === 'kept-token' ? ok(user) : fail(401, 'not_logged_in'),
    })
    prefetchSession()
    expect(api.callsTo('user/getUserInfo')).toHaveLength(1)
    const { result } = renderHook(() => useSessionCheck())
    expect(await result.current()).toBe('signed-in')
    expect(api.callsTo('user/getUserInfo')).toHaveLength(1)
    expect(useSession.getState().userInfo?.nickName).toBe('Alice')
  })

  test('an early answer for another token is not used', async () => {
    signedInAs('old-token')
    const api = fakeApi({ 'user/getUserInfo': () => ok(user) })
    prefetchSession()
    signedInAs('new-token')
    const { result } = renderHook(() => useSessionCheck())
    expect(await result.current()).toBe('signed-in')
    expect(api.callsTo('user/getUserInfo').map((c) => c.headers.token)).toEqual([
      'old-token',
      'new-token',
    ])
  })

  test('without a stored token nothing is asked', () => {
    const api = fakeApi({ 'user/getUserInfo': () => ok(user) })
    prefetchSession()
    expect(api.calls).toHaveLength(0)
  })
})
