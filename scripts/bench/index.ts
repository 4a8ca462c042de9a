// `npm run bench`: the project's benchmarks. Traffic stays on 127.0.0.1. BENCH_ONLY=ledger or
// BENCH_ONLY=settlement runs one of them. Exits non-zero when a budget is missed.
import { benchLedger } from './ledger.ts'
import { benchSettlement } from './settlement.ts'

const only = process.env.BENCH_ONLY
if (!only || only === 'ledger') await benchLedger()
if ((!only || only === 'settlement') && !(await benchSettlement())) process.exitCode = 1
