// `npm run bench`: the project's benchmarks. Traffic stays on 127.0.0.1.
import { benchLedger } from './ledger.ts'

await benchLedger()
