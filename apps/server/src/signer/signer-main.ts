// The signer process (HOPE_ROLE=signer), forked by the app's primary (or its single process):
// the only process holding the hot wallet's and the registry publisher's keys. It reads them,
// its database URL (the role hope_signer) and its callers' token from the pipe its parent wrote
// and closed (never its environment), and answers on 127.0.0.1 to the holders of that token;
// it ends with its parent. Run as a service of its own (no parent's pipe), it reads the key
// files, SIGNER_DATABASE_URL and SIGNER_TOKEN.
import fs from 'node:fs'
import {
  loadConfig,
  loadDbTimeouts,
  loadProcessSetup,
  readKeyFile,
  signerCapsFrom,
} from '../config.ts'
import { openDatabase } from '../db/pool.ts'
import { processLog } from '../lib/process-log.ts'
import { localKeyPort } from './sign-port.ts'
import { createSignerServer } from './signer.channel.ts'
import { SIGNER_SECRETS_FD, type SignerSecrets } from './signer.process.ts'
import { createSigner } from './signer.service.ts'

const env = process.env
const setup = loadProcessSetup(env)
const log = processLog('signer')

function readSecrets(): SignerSecrets {
  try {
    if (!setup.signerSecretsByPipe) {
      const { keyFiles, signerDatabaseUrl } = loadConfig(env)
      return {
        databaseUrl: signerDatabaseUrl ?? '',
        token: setup.signerToken ?? '',
        hotWalletKey: keyFiles.hotWallet
          ? readKeyFile(keyFiles.hotWallet, 'HOT_WALLET_KEY_FILE')
          : null,
        porPublisherKey: keyFiles.porPublisher
          ? readKeyFile(keyFiles.porPublisher, 'POR_PUBLISHER_KEY_FILE')
          : null,
      }
    }
    const text = fs.readFileSync(SIGNER_SECRETS_FD, 'utf8')
    fs.closeSync(SIGNER_SECRETS_FD)
    return JSON.parse(text) as SignerSecrets
  } catch (e) {
    log.fatal(`the signer did not get its keys: ${(e as Error).message}`)
    process.exit(1)
  }
}

const secrets = readSecrets()
const token = secrets.token ?? ''
if (!secrets.databaseUrl || token.length < 32) {
  log.fatal(
    'the signer needs its database URL (SIGNER_DATABASE_URL) and a token of 32 characters or more (SIGNER_TOKEN)',
  )
  process.exit(1)
}
// Its connections stay open: a payout is signed without a connect first, and pg_stat_activity
// shows the signer by name.
const database = openDatabase(secrets.databaseUrl, 2, {
  applicationName: `hope-signer ${process.pid}`,
  idleTimeoutMs: 0,
  timeouts: loadDbTimeouts(env),
})
const signer = createSigner({
  pool: database.pool,
  hotWallet: secrets.hotWalletKey ? localKeyPort(secrets.hotWalletKey) : null,
  porPublisher: secrets.porPublisherKey ? localKeyPort(secrets.porPublisherKey) : null,
  caps: signerCapsFrom(env),
  // Each signature and refusal, one JSON line on the app's output.
  log: (msg, extra) => log.info(extra, msg),
})
const hasHotWallet = secrets.hotWalletKey !== null
secrets.hotWalletKey = null
secrets.porPublisherKey = null

// It answers only once it reads what it checks: a role that cannot log in or read stops the start.
try {
  await database.pool.query('SELECT 1 FROM withdrawals LIMIT 0')
  await database.pool.query('SELECT 1 FROM settings LIMIT 0')
} catch (e) {
  log.fatal(`the signer cannot read the database: ${(e as Error).message}`)
  process.exit(1)
}

const server = createSignerServer(signer, token)
// SIGNER_PORT and SIGNER_HOST move it off a free port on 127.0.0.1.
server.listen(setup.signerPort, setup.signerHost, () => {
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  log.info(`signer ${process.pid} listening on ${setup.signerHost}:${port}`)
  process.send?.({
    hope: 'signer-ready',
    port,
    hotWallet: hasHotWallet ? signer.address : null,
    porPublisher: signer.porPublisher,
  })
})
const stop = () => {
  server.close()
  void database.close().finally(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', () => {})
// The parent is gone (killed, crashed): so is the signer.
process.on('disconnect', stop)
