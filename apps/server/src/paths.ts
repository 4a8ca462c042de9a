// Where the server's own files are, whether it runs from its sources (src/) or from the bundle
// that `npm start` builds (dist/): both sit directly in the server's package directory, so a
// path is worked out from that directory, never from the file that asks.
import path from 'node:path'

/** apps/server */
export const SERVER_DIR = path.resolve(import.meta.dirname, '..')
/** apps/server/src: the migrations and the upload worker are read from here in both cases. */
export const SOURCE_DIR = path.join(SERVER_DIR, 'src')
/** The repository's root (the default DATA_DIR and the web build live under it). */
export const REPO_ROOT = path.resolve(SERVER_DIR, '../..')
