import fs from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import type { OutputBundle, OutputChunk } from 'rolldown'
import { defineConfig, type Plugin } from 'vite'
import { earlyReadsScript, textsPreloadScript } from './src/lib/api/early-reads.ts'

const CORE_PACKAGES =
  /\/node_modules\/(react|react-dom|scheduler|react-router|i18next|react-i18next|zustand|classnames|tslib)\//

/**
 * antd-mobile's own helpers that every one of its components imports. Its ConfigProvider is
 * not among them: it loads with a language other than Chinese, or with a screen that needs it.
 */
const ANTD_BASICS =
  /\/antd-mobile\/es\/utils\/(native-props|with-default-props|attach-properties-to-component)\./

/** TanStack Query's option builders: identity functions the first screen's reads import. */
const QUERY_OPTIONS =
  /\/@tanstack\/react-query\/build\/modern\/(infiniteQueryOptions|queryOptions)\.js$/

/**
 * antd-mobile's parts most screens share beyond the core's (the button and its loading dots,
 * the config provider, two helpers): one chunk instead of five, each one more request before
 * a screen the app opens at (the invite) can show.
 */
const ANTD_SHARED =
  /\/antd-mobile\/es\/(components\/(button|dot-loading|config-provider)\/|utils\/(bound|to-css-length)\.)/

/** A top-level copy of a package every screen uses (not one nested inside another package). */
function isCoreModule(id: string): boolean {
  if (id.split('/node_modules/').length !== 2) return false
  return CORE_PACKAGES.test(id) || ANTD_BASICS.test(id) || QUERY_OPTIONS.test(id)
}

/** The npm package a module comes from (`@scope/name` or `name`), or null for the app's own. */
function packageOf(id: string): string | null {
  const at = id.lastIndexOf('/node_modules/')
  if (at < 0) return null
  const parts = id.slice(at + '/node_modules/'.length).split('/')
  const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]
  return name ? name.split('?')[0]! : null
}

/**
 * Writes which npm packages each chunk holds to `dist/.vite/chunk-packages.json`: the
 * first-screen budget check (scripts/first-screen-budget.ts) reads it to tell whether a
 * fetched chunk carries the wallet libraries, whatever name the bundler gave the chunk.
 */
function chunkPackages(): Plugin {
  return {
    name: 'hope:chunk-packages',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: Record<string, string[]> = {}
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue
        const names = new Set(item.moduleIds.map(packageOf).filter((n) => n !== null))
        chunks[item.fileName] = [...names].sort()
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/chunk-packages.json',
        source: `${JSON.stringify(chunks, null, 2)}\n`,
      })
    },
  }
}

/**
 * Screens the app is opened at besides home (tab screens, the invite link): the modules their
 * route loads (router.tsx, `lazyScreen`) and the texts beyond the first bundle's. Keep in step
 * with the router: a module missing here only loads later, as it would without this list.
 */
const START_SCREENS: Record<string, { modules: string[]; texts: string[] }> = {
  '/assets': { modules: ['src/features/assets/index.ts'], texts: ['money'] },
  '/invite': { modules: ['src/features/invite/index.ts'], texts: ['invite'] },
  '/stake': {
    modules: ['src/features/stake/index.ts', 'src/lib/api/query-scope.tsx'],
    texts: ['game'],
  },
  '/community': {
    modules: ['src/features/team/index.ts', 'src/lib/api/query-scope.tsx'],
    texts: ['team', 'money'],
  },
}

/**
 * What every start screen loads beyond its own (router.tsx `lazyScreen`): antd-mobile's texts
 * in the app's language (lib/ui/antd-texts.ts, with antd-mobile's config it sets) and the map of
 * the namespaces' files (lib/i18n/namespace-files.ts) each lazy text goes through.
 */
const EVERY_START_SCREEN = {
  modules: [
    'src/lib/ui/antd-texts.ts',
    'src/lib/i18n/namespace-files.ts',
    'node_modules/antd-mobile/es/components/config-provider/index.js',
  ],
  texts: ['ui'],
}

interface StartFiles {
  js: string[]
  css: string[]
  /** Per language (`lang` in localStorage, zhcn without one), the texts' chunks. */
  texts: Record<string, string[]>
}

/** The start screens' files, beyond what the entry already loads, per route path. */
function startFiles(bundle: OutputBundle, root: string): Record<string, StartFiles> {
  const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk')
  const facade = (suffix: string) =>
    chunks.find((c) => c.facadeModuleId?.endsWith(suffix)) ??
    chunks.find((c) => c.moduleIds.some((id) => id.endsWith(suffix)))
  const loaded = new Set<string>()
  const walk = (fileName: string, into: Set<string>) => {
    if (into.has(fileName) || loaded.has(fileName)) return
    const chunk = bundle[fileName]
    if (chunk?.type !== 'chunk') return
    into.add(fileName)
    for (const imported of chunk.imports) walk(imported, into)
  }
  for (const entry of chunks.filter((c) => c.isEntry)) walk(entry.fileName, loaded)
  const css = (files: Set<string>) =>
    [...files].flatMap((f) => [...((bundle[f] as OutputChunk).viteMetadata?.importedCss ?? [])])
  const out: Record<string, StartFiles> = {}
  for (const [route, screen] of Object.entries(START_SCREENS)) {
    const modules = [...screen.modules, ...EVERY_START_SCREEN.modules]
    const texts = [...screen.texts, ...EVERY_START_SCREEN.texts]
    const js = new Set<string>()
    for (const id of modules) {
      // The app's own modules by their path; a package's by its path in node_modules.
      const chunk = facade(id.startsWith('node_modules/') ? `/${id}` : path.join(root, id))
      if (chunk) walk(chunk.fileName, js)
    }
    const byLang: Record<string, string[]> = {}
    for (const lang of ['zhcn', 'en', 'ko', 'ja', 'th', 'vi']) {
      byLang[lang] = texts
        .map((ns) => facade(`/src/locales/${lang}/${ns}.json`)?.fileName)
        .filter((f) => f !== undefined)
    }
    out[route] = { js: [...js], css: css(js), texts: byLang }
  }
  return out
}

/**
 * Opened at a start screen (`#/assets`, `#/invite?…`), the page fetches that screen's code
 * beside the first bundle's instead of after it has run (`modulepreload`, CSS as `preload`:
 * the screen's import adds the stylesheet itself, from the cache). An inline script in the
 * head reads the hash route before any module loads; `crossorigin` as the bundler's own links
 * have it, so that the screen's import finds these answers in the cache.
 */
function startScreenPreload(): Plugin {
  let root = ''
  return {
    name: 'hope:start-screen-preload',
    apply: 'build',
    configResolved(config) {
      root = config.root
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle) return
        const files = JSON.stringify(startFiles(ctx.bundle, root))
        const script = `{const s=${files}[location.hash.slice(1).split('?')[0]];if(s){let l;try{l=localStorage.getItem('lang')}catch{}const a=(f,r,k)=>{const e=document.createElement('link');e.rel=r;if(k)e.as=k;e.crossOrigin='';e.href='./'+f;document.head.appendChild(e)};for(const f of s.js.concat(s.texts[l||'zhcn']||[]))a(f,'modulepreload');for(const f of s.css)a(f,'preload','style')}}`
        return [{ tag: 'script', children: script, injectTo: 'head' }]
      },
    },
  }
}

/**
 * The entry's stylesheet goes into the shell as a <style> element: the first paint then waits
 * for no request but the page itself (a stylesheet link blocks rendering for one more round trip
 * on the phone's network). It is small (about 4.5 KB compressed); a stylesheet that names a file
 * by `url()` stays a link, since that path would resolve against the page instead.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'hope:inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return
        return html.replace(
          /<link rel="stylesheet"[^>]*href="\.\/(assets\/[^"]+\.css)"[^>]*>/g,
          (link, fileName: string) => {
            const asset = ctx.bundle![fileName]
            if (asset?.type !== 'asset') return link
            const css = String(asset.source)
            // A file named in the stylesheet keeps it a link: its path is relative to it.
            if (/url\(\s*['"]?(?!data:)/.test(css)) return link
            return `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`
          },
        )
      },
    },
  }
}

/**
 * A start screen's first reads (the home's, the assets') start from the page's <head>, before
 * the scripts have loaded (src/lib/api/early-reads.ts).
 */
function earlyReads(): Plugin {
  return {
    name: 'hope:early-reads',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'script', children: earlyReadsScript(), injectTo: 'head' }],
  }
}

/**
 * The first texts of the language the app will speak load beside the first bundle: an inline
 * script in the head picks the language's `translation.json` chunk (src/lib/api/early-reads.ts).
 */
function textsPreload(): Plugin {
  return {
    name: 'hope:texts-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle) return
        const files: Record<string, string> = {}
        for (const item of Object.values(ctx.bundle)) {
          const lang =
            item.type === 'chunk' &&
            /\/src\/locales\/(\w+)\/translation\.json$/.exec(item.facadeModuleId ?? '')?.[1]
          if (lang) files[lang] = item.fileName
        }
        return [{ tag: 'script', children: textsPreloadScript(files), injectTo: 'head' }]
      },
    },
  }
}

/** Text files smaller than this are sent as they are: compressing them saves next to nothing. */
const PRECOMPRESS_MIN_BYTES = 1024

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside each text file of the build, at the
 * highest levels: the server sends the copy the browser accepts (fastify-static
 * `preCompressed`) without compressing per request. Uncompressed, the first screen's
 * JavaScript would be ~3× its gzip size on the phone's network.
 */
function precompress(): Plugin {
  return {
    name: 'hope:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist'
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(fileName) || fileName.startsWith('.vite/')) continue
        const file = path.join(outDir, fileName)
        const body = fs.readFileSync(file)
        if (body.length < PRECOMPRESS_MIN_BYTES) continue
        const brotli = brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
        fs.writeFileSync(`${file}.br`, brotli)
        fs.writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }))
      }
    },
  }
}

export default defineConfig({
  base: './',
  plugins: [
    react(),
    chunkPackages(),
    earlyReads(),
    textsPreload(),
    startScreenPreload(),
    inlineEntryCss(),
    precompress(),
  ],
  // `ws`: the support chat's socket (/api/chat/ws) goes through the same proxy.
  server: {
    proxy: {
      '/api': { target: 'http://localhost:8080', ws: true },
      // Images and videos operators upload (and the demo's) are served by the API process.
      '/uploads': 'http://localhost:8080',
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser the app targets knows <link rel="modulepreload">; a browser that does not
    // only loads those modules a little later.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // What every screen needs goes into one chunk: one request, and it compresses better
        // than the handful of small shared chunks the splitter makes otherwise.
        // TanStack Query loads with the first screen that fetches through it, in one piece;
        // its option builders go with the core, so that the home's request options, read
        // without it (lib/api/first-read.ts), do not pull it in.
        codeSplitting: {
          groups: [
            { name: 'core', test: isCoreModule },
            {
              name: 'query',
              test: (id: string) =>
                id.includes('/node_modules/@tanstack/') && !QUERY_OPTIONS.test(id),
            },
            // The rest of what the entry imports stays in one chunk too: otherwise the modules
            // lazy screens share with it (the request wrapper, the session store, …) become
            // small chunks of their own, each one more request and gzip stream on the first screen.
            { name: 'app', tags: ['$initial'] },
            // After the first screen's groups: what that screen uses of these stays with it.
            { name: 'antd-shared', test: (id: string) => ANTD_SHARED.test(id) },
          ],
        },
      },
    },
  },
})
