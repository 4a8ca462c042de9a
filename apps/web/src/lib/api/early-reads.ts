// A start screen's first reads, started by the page itself: an inline script in the shell's
// <head> (built in by vite.config.ts) sends them while the scripts still download, and
// `request()` takes each answer once instead of asking again. On a phone's network that saves
// the round trip the reads would otherwise start only after the scripts have run.
import { DEFAULT_LANG, LAN_HEADER } from '@hope/api'
import { LANG_STORAGE_KEY } from '../i18n/lang.ts'
import { TOKEN_STORAGE_KEY } from '../storage-keys.ts'

/** The content type every call sends (`request()`). */
export const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8'

const SESSION_CHECK = '/api/user/getUserInfo'
const BALANCE = '/api/userAccount/balance'

/**
 * What a screen the app opens at asks for first, for a signed-in visitor, per route path;
 * each URL written as `request()` writes it (params in order, none undefined). The home: the
 * session check, the balance, the ticker's announcements (5, type 1) and the latest news (3);
 * the assets: the session check and the balance. Tests hold these lists to the screens' reads.
 */
export const EARLY_READS: Readonly<Record<string, readonly string[]>> = {
  '/': [
    SESSION_CHECK,
    BALANCE,
    '/api/main/news?pageNum=1&pageSize=5&type=1',
    '/api/main/news?pageNum=1&pageSize=3',
  ],
  '/assets': [SESSION_CHECK, BALANCE],
}

declare global {
  interface Window {
    /** The page's early reads by `url lan token`, until `request()` takes them. */
    __hopeEarlyReads?: Record<string, Promise<Response>>
  }
}

const keyOf = (url: string, lan: string, token: string) => `${url} ${lan} ${token}`

/**
 * The page's early answer for this call (same URL, language header and token), once; null
 * when the page started none for it, and then the caller fetches as usual.
 */
export function takeEarlyRead(
  url: string,
  lan: string,
  token: string | null,
  win: Window = window,
): Promise<Response> | null {
  const reads = win.__hopeEarlyReads
  if (!reads || !token) return null
  const key = keyOf(url, lan, token)
  const found = reads[key] ?? null
  delete reads[key]
  return found
}

/**
 * Inline code that sets `k` to the language the app will speak, as lang.ts picks it: the
 * stored one, else the browser's first the app has, else Chinese. It returns (leaving the work
 * to the app) on a wallet's own `window.lang`, or a language it cannot name as the app does.
 * `m` holds the app's languages as keys.
 */
function pickLang(): string {
  const text = JSON.stringify
  return (
    `var k=localStorage.getItem(${text(LANG_STORAGE_KEY)});` +
    'if(!k){if(window.lang)return;var n=navigator.languages||[navigator.language||""];' +
    'for(var i=0;i<n.length&&!k;i++){var c=String(n[i]).toLowerCase().split("-")[0];' +
    `k=c==="zh"?"zhcn":Object.prototype.hasOwnProperty.call(m,c)?c:null}k=k||${text(DEFAULT_LANG)}}` +
    'if(!Object.prototype.hasOwnProperty.call(m,k))return;'
  )
}

/**
 * The inline script that fetches the first texts of the language the app will speak beside
 * the first bundle (`modulepreload`, `crossorigin` as the bundler's own links), not after it has
 * run. `files` names each language's chunk of `translation.json`.
 */
export function textsPreloadScript(files: Record<string, string>): string {
  return (
    `(function(){try{var m=${JSON.stringify(files)};` +
    pickLang() +
    "var e=document.createElement('link');e.rel='modulepreload';e.crossOrigin='';" +
    "e.href='./'+m[k];document.head.appendChild(e)}catch(e){}})()"
  )
}

/**
 * The inline script: at a route of EARLY_READS (no hash is the home) with a stored token, it
 * sends that route's reads with the headers `request()` would send, in the language the app
 * will speak: the stored one, else the browser's first the app has, else Chinese. A language
 * it cannot name as the app does leaves the reads to the app.
 */
export function earlyReadsScript(): string {
  const text = JSON.stringify
  return (
    '(function(){try{' +
    "var h=location.hash.replace(/^#/,'').split('?')[0]||'/'," +
    `s=${text(EARLY_READS)};if(!Object.prototype.hasOwnProperty.call(s,h))return;` +
    `var t=localStorage.getItem(${text(TOKEN_STORAGE_KEY)});if(!t)return;` +
    `var m=${text(LAN_HEADER)};` +
    pickLang() +
    'var l=m[k],r={};' +
    's[h].forEach(function(u){' +
    `var p=fetch(u,{method:'POST',headers:{'Content-Type':${text(JSON_CONTENT_TYPE)},lan:l,token:t}});` +
    "p.catch(function(){});r[u+' '+l+' '+t]=p});" +
    'window.__hopeEarlyReads=r' +
    '}catch(e){}})()'
  )
}
