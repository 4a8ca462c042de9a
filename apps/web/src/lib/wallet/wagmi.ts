/**
 * The wallet's signing side, loaded with `import()` the first time the app needs a signature
 * (so wagmi and viem stay out of the first bundle). The generic `injected()` connector plus
 * EIP-6963 discovery; never the `metaMask` connector, which several wallets pose as (DESIGN §3a).
 */
import type { OutflowTypedData } from '@hope/api'
import type { Hex } from 'viem'
import { mainnet } from 'viem/chains'
import { createConfig, http, injected, type Connector } from 'wagmi'
import { connect, getConnection, signMessage, signTypedData } from 'wagmi/actions'
import type { Eip1193Provider } from './eip1193.ts'

export const wagmiConfig = createConfig({
  chains: [mainnet],
  connectors: [injected({ shimDisconnect: false })],
  multiInjectedProviderDiscovery: true,
  transports: { [mainnet.id]: http() },
  storage: null,
})

/** The connector driving this provider (an EIP-6963 one when it announced itself). */
async function connectorFor(provider: Eip1193Provider): Promise<Connector> {
  const connectors = wagmiConfig.connectors
  for (const connector of connectors) {
    const candidate = await connector.getProvider().catch(() => undefined)
    if (candidate === provider) return connector
  }
  const fallback = connectors.find((c) => c.type === 'injected')
  if (!fallback) throw new Error('no injected wallet connector')
  return fallback
}

async function connected(provider: Eip1193Provider): Promise<Connector> {
  const connector = await connectorFor(provider)
  if (getConnection(wagmiConfig).connector?.uid !== connector.uid) {
    await connect(wagmiConfig, { connector })
  }
  return connector
}

/** Signs UTF-8 text with personal_sign through wagmi, connecting first when needed. */
export async function signText(
  provider: Eip1193Provider,
  address: `0x${string}`,
  message: string,
): Promise<Hex> {
  const connector = await connected(provider)
  return signMessage(wagmiConfig, { account: address, connector, message })
}

/** Signs EIP-712 typed data (eth_signTypedData_v4) through wagmi, connecting first when needed. */
export async function signTyped(
  provider: Eip1193Provider,
  address: `0x${string}`,
  typed: OutflowTypedData,
): Promise<Hex> {
  const connector = await connected(provider)
  return signTypedData(wagmiConfig, {
    account: address,
    connector,
    domain: typed.domain,
    types: typed.types,
    primaryType: typed.primaryType,
    message: { ...typed.message, deadline: BigInt(typed.message.deadline) },
  })
}
