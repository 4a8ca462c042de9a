import { QueryClient, queryOptions } from '@tanstack/react-query'
import { act, renderHook, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, test, vi } from 'vitest'

type FirstReadModule = typeof import('./first-read.ts') & {
  useSession: (typeof import('../store.ts'))['useSession']
}

/** Fresh copies of the module and its session store: no query client has the reads yet. */
async function freshModule(): Promise<FirstReadModule> {
  vi.resetModules()
  const [read, store] = await Promise.all([import('./first-read.ts'), import('../store.ts')])
  return { ...read, useSession: store.useSession }
}

function counter(staleTime?: number) {
  let calls = 0
  const fetcher = vi.fn(async () => {
    calls += 1
    return { calls }
  })
  const options = () =>
    queryOptions({
      queryKey: ['test', 'counter'] as const,
      queryFn: fetcher,
      ...(staleTime === undefined ? {} : { staleTime }),
    })
  return { fetcher, options }
}

describe('useFirstRead before TanStack Query loads', () => {
  let mod: FirstReadModule
  beforeEach(async () => {
    mod = await freshModule()
  })

  test('fetches once for readers of one key and keeps the answer while it is fresh', async () => {
    const { fetcher, options } = counter()
    const first = renderHook(() => mod.useFirstRead(options()))
    const second = renderHook(() => mod.useFirstRead(options()))
    expect(first.result.current.isPending).toBe(true)
    await waitFor(() => expect(first.result.current.data).toEqual({ calls: 1 }))
    expect(second.result.current.data).toEqual({ calls: 1 })
    first.unmount()
    second.unmount()
    const again = renderHook(() => mod.useFirstRead(options()))
    expect(again.result.current.data).toEqual({ calls: 1 })
    expect(fetcher).toHaveBeenCalledTimes(1)
  })

  test('with staleTime 0 a new reader fetches again, showing the last answer meanwhile', async () => {
    const { fetcher, options } = counter(0)
    const first = renderHook(() => mod.useFirstRead(options()))
    await waitFor(() => expect(first.result.current.data).toEqual({ calls: 1 }))
    first.unmount()
    const again = renderHook(() => mod.useFirstRead(options()))
    expect(again.result.current).toMatchObject({ isPending: false, data: { calls: 1 } })
    await waitFor(() => expect(again.result.current.data).toEqual({ calls: 2 }))
    expect(fetcher).toHaveBeenCalledTimes(2)
  })

  test('a prefetch answers the reader that mounts while it is under way', async () => {
    const { fetcher, options } = counter()
    const prefetched = mod.prefetchFirstRead(options())
    const reader = renderHook(() => mod.useFirstRead(options()))
    expect(await prefetched).toEqual({ calls: 1 })
    await waitFor(() => expect(reader.result.current.data).toEqual({ calls: 1 }))
    expect(fetcher).toHaveBeenCalledTimes(1)
  })

  test('a prefetched answer serves its first reader as it is, even with staleTime 0', async () => {
    const { fetcher, options } = counter(0)
    expect(await mod.prefetchFirstRead(options())).toEqual({ calls: 1 })
    const first = renderHook(() => mod.useFirstRead(options()))
    expect(first.result.current.data).toEqual({ calls: 1 })
    first.unmount()
    expect(fetcher).toHaveBeenCalledTimes(1)
    const second = renderHook(() => mod.useFirstRead(options()))
    await waitFor(() => expect(second.result.current.data).toEqual({ calls: 2 }))
  })

  test('a failure is an error until refetch answers', async () => {
    const fetcher = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValueOnce('up')
    const options = queryOptions({ queryKey: ['test', 'flaky'] as const, queryFn: fetcher })
    const { result } = renderHook(() => mod.useFirstRead(options))
    await waitFor(() => expect(result.current.isError).toBe(true))
    expect(result.current.isPending).toBe(false)
    await act(() => result.current.refetch())
    expect(result.current).toMatchObject({ isError: false, data: 'up' })
  })

  test('another session drops what was read for the last one', async () => {
    mod.useSession.setState({ token: 'first-token' })
    const { fetcher, options } = counter()
    const first = renderHook(() => mod.useFirstRead(options()))
    await waitFor(() => expect(first.result.current.data).toEqual({ calls: 1 }))
    first.unmount()
    act(() => mod.useSession.getState().signOut())
    const again = renderHook(() => mod.useFirstRead(options()))
    expect(again.result.current.isPending).toBe(true)
    await waitFor(() => expect(again.result.current.data).toEqual({ calls: 2 }))
    expect(fetcher).toHaveBeenCalledTimes(2)
  })

  test('the query client takes the answers over and becomes the one copy', async () => {
    const { fetcher, options } = counter()
    const reader = renderHook(() => mod.useFirstRead(options()))
    await waitFor(() => expect(reader.result.current.data).toEqual({ calls: 1 }))
    const client = new QueryClient()
    act(() => mod.handOverFirstReads(client))
    expect(client.getQueryData(['test', 'counter'])).toEqual({ calls: 1 })
    expect(reader.result.current.data).toEqual({ calls: 1 })
    // A change in the cache (a mutation's update, another screen's fetch) reaches the reader.
    act(() => client.setQueryData(['test', 'counter'], { calls: 9 }))
    expect(reader.result.current.data).toEqual({ calls: 9 })
    expect(fetcher).toHaveBeenCalledTimes(1)
    await act(() => reader.result.current.refetch())
    expect(reader.result.current.data).toEqual({ calls: 2 })
    expect(client.getQueryData(['test', 'counter'])).toEqual({ calls: 2 })
  })
})
