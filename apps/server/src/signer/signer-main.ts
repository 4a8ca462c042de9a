// The signer process (HOPE_ROLE=signer), forked by the app's primary (or its single process):
// the only process holding the hot wallet's and the registry publisher's keys. It takes them
// from its environment, forgets them there, and answers on 127.0.0.1 to the holders of the
// token its parent made; it ends with its parent.
import { openDatabase } from '../db/pool.ts'
import { localKeyPort } from './sign-port.ts'
import { createSignerServer } from './signer.channel.ts'
import { createSigner, signerCapsFrom } from './signer.service.ts'

const env = process.env
const hotKey = env.HOT_WALLET_KEY as `0x${string}` | undefined
const porKey = env.POR_PUBLISHER_KEY as `0x${string}` | undefined
const token = env.SIGNER_TOKEN ?? ''
delete env.HOT_WALLET_KEY
delete env.POR_PUBLISHER_KEY
delete env.SIGNER_TOKEN
if (!env.DATABASE_URL || token.length < 32) {
  console.error('the signer needs DATABASE_URL and SIGNER_TOKEN')
  process.exit(1)
}
const database = openDatabase(env.DATABASE_URL, 2)
const signer = createSigner({
  pool: database.pool,
  hotWallet: hotKey ? localKeyPort(hotKey) : null,
  porPublisher: porKey ? localKeyPort(porKey) : null,
  caps: signerCapsFrom(env),
  // Each signature and refusal, one JSON line on the app's output.
  log: (msg, extra) => console.info(JSON.stringify({ signer: msg, ...extra })),
})
const server = createSignerServer(signer, token)
// Its own service on another machine listens where SIGNER_PORT and SIGNER_HOST say.
server.listen(Number(env.SIGNER_PORT) || 0, env.SIGNER_HOST || '127.0.0.1', () => {
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  console.info(`signer ${process.pid} listening on ${env.SIGNER_HOST || '127.0.0.1'}:${port}`)
  process.send?.({
    hope: 'signer-ready',
    port,
    hotWallet: hotKey ? signer.address : null,
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
