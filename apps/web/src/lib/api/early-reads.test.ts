import { LANGS, SHELL_BOOT_ELEMENT_ID } from '@hope/api'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { prefetchSession } from '../../features/auth/index.ts'
import { prefetchHomeReads } from '../../features/home/prefetch-home-reads.ts'
import { fakeApi, ok } from '../../test/fake-api.ts'
import { resetBootData } from './boot.ts'
import { EARLY_READS, earlyReadsScript } from './early-reads.ts'
import { balanceOptions } from './balance.ts'
import { currentLang, LANG_STORAGE_KEY } from '../i18n/lang.ts'
import { createQueryClient } from './query-client.ts'
import { request } from './request.ts'
import { TOKEN_STORAGE_KEY, useSession } from '../store.ts'

const HOME_EARLY_READS = EARLY_READS['/']!

/** Runs the shell's inline script as the page would, at `hash`. */
function runPageScript(hash: string): void {
  window.location.hash = hash
  new Function(earlyReadsScript())()
}

const urlOf = (input: unknown) => {
  const url = new URL(String(input), 'http://localhost')
  return url.pathname + url.search
}

afterEach(() => {
  delete window.__hopeEarlyReads
  window.location.hash = ''
})

describe('early reads', () => {
  test('the page sends the home’s reads with the headers request() sends; request() takes each once', async () => {
    window.localStorage.setItem(TOKEN_STORAGE_KEY, 'tok-early')
    window.localStorage.setItem(LANG_STORAGE_KEY, 'en')
    const api = fakeApi({
      'userAccount/balance': () => ok([{ kind: 'usdt', early: true }]),
      'user/getUserInfo': () => ok({ id: 1 }),
      'main/news': () => ok({ list: [] }),
    })
    runPageScript('#/')
    expect(api.fetchMock.mock.calls.map(([input]) => urlOf(input))).toEqual(HOME_EARLY_READS)
    for (const call of api.calls) {
      expect(call.method).toBe('POST')
      expect(call.headers).toEqual({
        'Content-Type': 'application/json;charset=UTF-8',
        lan: 'en_US',
        token: 'tok-early',
      })
    }

    useSession.setState({ token: 'tok-early' })
    // The same call is answered from the page's read: nothing more is sent.
    await expect(request('userAccount/balance')).resolves.toEqual([{ kind: 'usdt', early: true }])
    expect(api.calls).toHaveLength(HOME_EARLY_READS.length)
    // Once: the next one asks the server.
    await request('userAccount/balance')
    expect(api.calls).toHaveLength(HOME_EARLY_READS.length + 1)
    // Another session or language does not take the page's answers.
    useSession.setState({ token: 'tok-other' })
    await request('user/getUserInfo')
    expect(api.calls).toHaveLength(HOME_EARLY_READS.length + 2)
    await request('main/news', { pageNum: 1, pageSize: 3 }, { lang: 'zhcn' })
    expect(api.calls).toHaveLength(HOME_EARLY_READS.length + 3)
  })

  test('without a stored language the reads go in the language the app will pick: the browser’s', () => {
    window.localStorage.removeItem(LANG_STORAGE_KEY)
    window.localStorage.setItem(TOKEN_STORAGE_KEY, 'tok-early')
    const languages = vi.spyOn(navigator, 'languages', 'get')
    try {
      for (const [tags, lan, lang] of [
        [['ko-KR', 'en-US'], 'ko_KR', 'ko'],
        [['fr-FR', 'ja'], 'ja_JP', 'ja'],
        [['zh-TW'], 'zh_CN', 'zhcn'],
        [['de-DE'], 'zh_CN', 'zhcn'],
      ] as const) {
        languages.mockReturnValue([...tags])
        const api = fakeApi({})
        runPageScript('#/')
        expect(new Set(api.calls.map((c) => c.headers.lan))).toEqual(new Set([lan]))
        // The app speaks the same language, so request() takes these reads.
        expect(currentLang()).toBe(lang)
        delete window.__hopeEarlyReads
      }
    } finally {
      languages.mockRestore()
    }
  })

  test('the assets screen gets its own reads; no hash is the home', () => {
    window.localStorage.setItem(TOKEN_STORAGE_KEY, 'tok-early')
    const api = fakeApi({})
    runPageScript('#/assets?from=home')
    expect(api.fetchMock.mock.calls.map(([input]) => urlOf(input))).toEqual(EARLY_READS['/assets'])
    api.fetchMock.mockClear()
    runPageScript('')
    expect(api.fetchMock.mock.calls.map(([input]) => urlOf(input))).toEqual(HOME_EARLY_READS)
  })

  test('nothing is sent off a start screen, without a token, or in a language the app would not use', () => {
    const api = fakeApi({})
    window.localStorage.setItem(TOKEN_STORAGE_KEY, 'tok-early')
    runPageScript('#/stake')
    runPageScript('#/toString')
    window.localStorage.setItem(LANG_STORAGE_KEY, 'toString')
    runPageScript('#/')
    window.localStorage.clear()
    runPageScript('#/')
    expect(api.calls).toEqual([])
    expect(window.__hopeEarlyReads).toBeUndefined()
  })

  test('the list is exactly what the home reads at start for a signed-in visitor', async () => {
    // The banners come with the page (boot data): they are not among the reads.
    const boot = document.createElement('script')
    boot.id = SHELL_BOOT_ELEMENT_ID
    boot.type = 'application/json'
    boot.textContent = JSON.stringify({ banners: Object.fromEntries(LANGS.map((l) => [l, []])) })
    document.head.append(boot)
    resetBootData()
    try {
      const api = fakeApi({})
      useSession.setState({ token: 'tok-list' })
      prefetchSession()
      prefetchHomeReads()
      await vi.waitFor(() => expect(api.calls.length).toBeGreaterThanOrEqual(4))
      const sent = api.fetchMock.mock.calls.map(([input]) => urlOf(input))
      expect([...sent].sort()).toEqual([...HOME_EARLY_READS].sort())
    } finally {
      boot.remove()
      resetBootData()
    }
  })

  test('the assets list is what the assets screen reads first: the session check and the balance', async () => {
    const api = fakeApi({
      'user/getUserInfo': () => ok({ id: 1 }),
      'userAccount/balance': () => ok([]),
    })
    useSession.setState({ token: 'tok-assets' })
    prefetchSession()
    await createQueryClient()
      .fetchQuery(balanceOptions())
      .catch(() => undefined)
    const sent = api.fetchMock.mock.calls.map(([input]) => urlOf(input))
    expect([...sent].sort()).toEqual([...EARLY_READS['/assets']!].sort())
  })
})
