import type { QueryClient, QueryKey, UseQueryOptions } from '@tanstack/react-query'
import { useCallback, useEffect, useSyncExternalStore } from 'react'
import { useSession } from '../store.ts'

/**
 * Reads for the home screen without TanStack Query: its ~10 KB gzip would put the first
 * screen over its JavaScript budget (120 KB), so the home's sections read through this small
 * hook, with the same options (`balanceOptions()`, `latestNewsOptions(…)`, …) as `useQuery`.
 *
 * Until TanStack Query loads (with the first other screen, see query-scope.tsx), answers are
 * kept here per key; then they are handed over to the query cache, and from there on the
 * hook reads and refreshes through that cache, which stays the one copy (a transfer's
 * invalidation reaches the home too).
 */

/** The query client's default freshness (query-client.ts). */
const DEFAULT_STALE_MS = 30_000

interface Entry {
  key: QueryKey
  data?: unknown
  error?: unknown
  /** When `data` was fetched (0: never). */
  updatedAt: number
  /** Fetched ahead by a prefetch: its first reader takes it as it is, whatever its staleTime. */
  unread?: boolean
}

/** What a reader sees: like `useQuery`'s result, narrowed by `isPending` and `isError`. */
export type FirstRead<T> = { refetch(): Promise<void> } & (
  | { isPending: true; isError: false; data: undefined }
  | { isPending: false; isError: true; data: undefined }
  | { isPending: false; isError: false; data: T }
)

const entries = new Map<string, Entry>()
/** The requests under way, per key: a second reader joins the first one's. */
const inFlight = new Map<string, Promise<void>>()
const listeners = new Set<() => void>()
let client: QueryClient | null = null
/** Counts the session changes: an answer to a request of an earlier session is dropped. */
let session = 0

const hashKey = (key: QueryKey) => JSON.stringify(key)

function notify(): void {
  for (const listener of listeners) listener()
}

function subscribeLocal(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function update(hash: string, entry: Entry): void {
  entries.set(hash, entry)
  notify()
}

// Another user's (or no user's) session: nothing read for the last one may show.
useSession.subscribe((state, previous) => {
  if (state.token === previous.token) return
  session += 1
  inFlight.clear()
  if (entries.size === 0) return
  entries.clear()
  notify()
})

/** From now on reads go through `queryClient`; what was read so far moves into it. */
export function handOverFirstReads(queryClient: QueryClient): void {
  for (const entry of entries.values())
    if (entry.updatedAt > 0)
      queryClient.setQueryData(entry.key, entry.data, { updatedAt: entry.updatedAt })
  entries.clear()
  client = queryClient
  notify()
}

type Options<T, K extends QueryKey> = UseQueryOptions<T, Error, T, K>

function staleMs(options: { staleTime?: unknown }): number {
  return typeof options.staleTime === 'number' ? options.staleTime : DEFAULT_STALE_MS
}

function fetchLocal<T, K extends QueryKey>(
  options: Options<T, K>,
  hash: string,
  force: boolean,
  prefetch = false,
): Promise<void> {
  const running = inFlight.get(hash)
  if (running) return running
  const entry = entries.get(hash) ?? { key: options.queryKey, updatedAt: 0 }
  if (entry.unread && !prefetch && !force) {
    // Not something a reader shows: changed in place, without a new snapshot.
    entry.unread = false
    return Promise.resolve()
  }
  const fresh = entry.error === undefined && Date.now() - entry.updatedAt < staleMs(options)
  if (entry.updatedAt > 0 && fresh && !force) return Promise.resolve()
  const started = session
  // The app's query functions read only `signal` from their context.
  const queryFn = options.queryFn as (context: { signal: AbortSignal; queryKey: K }) => Promise<T>
  const request = queryFn({ signal: new AbortController().signal, queryKey: options.queryKey })
    .then(
      (data) => {
        if (started !== session) return
        if (client) client.setQueryData<T>(options.queryKey as QueryKey, data)
        else update(hash, { key: options.queryKey, data, updatedAt: Date.now(), unread: prefetch })
      },
      (error: unknown) => {
        if (started === session && !client) update(hash, { ...entry, error })
      },
    )
    .finally(() => {
      if (inFlight.get(hash) === request) inFlight.delete(hash)
    })
  inFlight.set(hash, request)
  return request
}

async function refresh<T, K extends QueryKey>(
  options: Options<T, K>,
  hash: string,
  force: boolean,
  prefetch = false,
): Promise<void> {
  if (!client) return fetchLocal(options, hash, force, prefetch)
  // The request wrapper already reported a failure; the cache keeps it as the query's error.
  // Kept while the page lives (a handful of small answers): a collected entry would show the
  // home's skeleton again.
  await client
    .fetchQuery({ ...options, staleTime: force ? 0 : staleMs(options), gcTime: Infinity })
    .catch(() => undefined)
}

/**
 * Takes an answer the page already has (the shell's boot data) as a read of `options` made now:
 * its first reader shows it without asking, later ones ask again once it is stale. Does
 * nothing when the key was read already.
 */
export function seedFirstRead<T, K extends QueryKey>(options: Options<T, K>, data: T): void {
  const hash = hashKey(options.queryKey)
  if (client) {
    if (client.getQueryData(options.queryKey) === undefined)
      client.setQueryData(options.queryKey as QueryKey, data)
    return
  }
  if (entries.get(hash)?.updatedAt || inFlight.has(hash)) return
  update(hash, { key: options.queryKey, data, updatedAt: Date.now(), unread: true })
}

/**
 * Starts a read before its first reader mounts. Its answer serves that reader as it is (even
 * with staleTime 0, nothing is asked twice as the page starts), later readers as any other.
 * Resolves with it (undefined when the read failed).
 */
export async function prefetchFirstRead<T, K extends QueryKey>(
  options: Options<T, K>,
): Promise<T | undefined> {
  const hash = hashKey(options.queryKey)
  await refresh(options, hash, false, true)
  const data = client ? client.getQueryData(options.queryKey) : entries.get(hash)?.data
  return data as T | undefined
}

/**
 * `useQuery` for the first screen: the last answer for the key (kept while a newer one is
 * fetched), fetched on mount when missing or older than the options' `staleTime`.
 * @example const balance = useFirstRead(balanceOptions())
 */
export function useFirstRead<T, K extends QueryKey>(options: Options<T, K>): FirstRead<T> {
  const hash = hashKey(options.queryKey)
  const backend = client
  const subscribe = useCallback(
    (listener: () => void) => {
      const off = subscribeLocal(listener)
      // Only this key's events: another screen part building its query during its render
      // must not update this one's reader in the middle of that render.
      const offCache = backend
        ?.getQueryCache()
        .subscribe((event) => void (hashKey(event.query.queryKey) === hash && listener()))
      return () => {
        off()
        offCache?.()
      }
    },
    [backend, hash],
  )
  const state = useSyncExternalStore(subscribe, () =>
    backend ? backend.getQueryState<T, Error>(options.queryKey) : entries.get(hash),
  )

  // The options are rebuilt on every render; the key's hash stands for them. A cache cleared
  // under a mounted reader (a logout) is not read again: the screen is on its way out.
  useEffect(() => void refresh(options, hash, false), [hash, backend])

  const refetch = () => refresh(options, hash, true)
  const data = state?.data as T | undefined
  if (data !== undefined) return { isPending: false, isError: false, data, refetch }
  if (state?.error != null) return { isPending: false, isError: true, data: undefined, refetch }
  return { isPending: true, isError: false, data: undefined, refetch }
}
