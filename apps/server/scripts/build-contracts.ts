// `npm run contracts:build`: compiles contracts/*.sol with the solc package and writes
// src/chain/contracts/<Name>.json (ABI + bytecode), which is committed: start-up never compiles.
import fs from 'node:fs'
import path from 'node:path'
import solc from 'solc'

const root = path.resolve(import.meta.dirname, '..')
const sources = Object.fromEntries(
  fs
    .readdirSync(path.join(root, 'contracts'))
    .filter((f) => f.endsWith('.sol'))
    .map((f) => [f, { content: fs.readFileSync(path.join(root, 'contracts', f), 'utf8') }]),
)
const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'paris',
    outputSelection: {
      '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] },
    },
  },
}
const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<
    string,
    Record<
      string,
      {
        abi: unknown[]
        evm: { bytecode: { object: string }; deployedBytecode: { object: string } }
      }
    >
  >
}
const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage)
  process.exit(1)
}
const outDir = path.join(root, 'src/chain/contracts')
fs.mkdirSync(outDir, { recursive: true })
for (const file of Object.values(output.contracts)) {
  for (const [name, c] of Object.entries(file)) {
    const json = {
      contractName: name,
      compiler: `solc ${solc.version()}`,
      abi: c.abi,
      bytecode: `0x${c.evm.bytecode.object}`,
      // The runtime code; for a contract without immutables (PorRegistry), exactly the code a
      // deployment holds, whose hash a verifier pins.
      deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
    }
    fs.writeFileSync(path.join(outDir, `${name}.json`), `${JSON.stringify(json, null, 2)}\n`)
    console.info(`compiled ${name}`)
  }
}
