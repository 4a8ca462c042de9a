import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { fail, fakeApi, ok } from '../../test/fake-api.ts'
import { ApiError, request, REQUEST_TIMEOUT_MS } from './request.ts'
import { useSession } from '../store.ts'
import { showToast } from '../ui/toast.ts'

vi.mock('../ui/toast.ts', () => ({ showToast: vi.fn() }))

/** A fetch that never answers and rejects only when its signal aborts. */
const stubHangingFetch = () =>
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        ),
    ),
  )

describe('request', () => {
  beforeEach(() => vi.mocked(showToast).mockClear())
  afterEach(() => vi.mocked(showToast).mockClear())

  test('posts to /api/<path> with the params in the query string', async () => {
    const api = fakeApi({ 'main/news': () => ok({ list: [] }) })
    await request('main/news', { pageNum: 2, pageSize: 3, type: undefined })
    const [call] = api.calls
    expect(call?.method).toBe('POST')
    expect(call?.path).toBe('main/news')
    expect(call?.params).toEqual({ pageNum: '2', pageSize: '3' })
    expect(call?.headers['Content-Type']).toBe('application/json;charset=UTF-8')
  })

  test('resolves the data only when HTTP status and body code are both 200', async () => {
    fakeApi({ 'user/getUserInfo': () => ok({ id: 7 }) })
    await expect(request('user/getUserInfo')).resolves.toEqual({ id: 7 })

    fakeApi({ 'user/getUserInfo': () => ({ body: { code: 500, msg: '出错了', data: null } }) })
    await expect(request('user/getUserInfo')).rejects.toMatchObject({ code: 500, msg: '出错了' })

    fakeApi({ 'user/getUserInfo': () => ({ status: 502, body: { code: 200, data: { id: 7 } } }) })
    await expect(request('user/getUserInfo')).rejects.toBeInstanceOf(ApiError)
  })

  test("toasts the server's msg, or 系统错误 when it gives none", async () => {
    fakeApi({ 'user/getUserInfo': () => fail(409, 'insufficient_balance', '余额不足') })
    await expect(request('user/getUserInfo')).rejects.toMatchObject({
      reason: 'insufficient_balance',
    })
    expect(showToast).toHaveBeenLastCalledWith('余额不足')

    fakeApi({ 'user/getUserInfo': () => ({ status: 500, body: 'oops' }) })
    await expect(request('user/getUserInfo')).rejects.toMatchObject({ code: 500 })
    expect(showToast).toHaveBeenLastCalledWith('系统错误')
  })

  test('shows no toast with hideToast', async () => {
    fakeApi({ 'user/getUserInfoByName': () => fail(404, 'not_registered') })
    await expect(
      request('user/getUserInfoByName', { userName: 'x' }, { hideToast: true }),
    ).rejects.toMatchObject({ reason: 'not_registered' })
    expect(showToast).not.toHaveBeenCalled()
  })

  test('times out after 60 s, only logged', async () => {
    vi.useFakeTimers()
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    stubHangingFetch()
    const pending = request('user/getUserInfo')
    const settled = vi.fn()
    pending.catch(settled)
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1)
    expect(settled).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await expect(pending).rejects.toMatchObject({ kind: 'timeout', code: 0 })
    expect(logged).toHaveBeenCalled()
    expect(showToast).not.toHaveBeenCalled()
  })

  test('a network error is only logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')))
    await expect(request('main/news')).rejects.toMatchObject({ kind: 'network' })
    expect(logged).toHaveBeenCalled()
    expect(showToast).not.toHaveBeenCalled()
  })

  test('a call the caller cancels is neither logged nor toasted', async () => {
    const logged = vi.spyOn(console, 'error')
    stubHangingFetch()
    const caller = new AbortController()
    const pending = request('main/news', {}, { signal: caller.signal })
    caller.abort()
    await expect(pending).rejects.toThrow()
    expect(logged).not.toHaveBeenCalled()
    expect(showToast).not.toHaveBeenCalled()
  })

  test('sends the lan header of the stored language and the token when there is one', async () => {
    const api = fakeApi({ 'user/getUserInfo': () => ok({}) })
    await request('user/getUserInfo')
    expect(api.calls[0]?.headers.lan).toBe('zh_CN')
    expect(api.calls[0]?.headers.token).toBeUndefined()

    window.localStorage.setItem('lang', 'ko')
    useSession.setState({ token: 'tok-1' })
    await request('user/getUserInfo')
    expect(api.calls[1]?.headers.lan).toBe('ko_KR')
    expect(api.calls[1]?.headers.token).toBe('tok-1')
  })

  test('a 401 session_expired drops the stored token', async () => {
    window.localStorage.setItem('token', 'old')
    useSession.setState({ token: 'old' })
    fakeApi({ 'user/getUserInfo': () => fail(401, 'session_expired') })
    await expect(request('user/getUserInfo', {}, { hideToast: true })).rejects.toThrow()
    expect(useSession.getState().token).toBeNull()
    expect(window.localStorage.getItem('token')).toBeNull()
  })
})
