/**
 * Links that open a page in a wallet app's own browser, in the form each wallet documents
 * for its dapp browser. Every link carries the whole address (fragment included), so an
 * invitation link keeps its inviter.
 */
export interface WalletLink {
  id: 'metamask' | 'tokenpocket' | 'imtoken' | 'trust' | 'okx' | 'bitget'
  name: string
  href: string
}

export function walletLinks(pageUrl: string): WalletLink[] {
  const url = new URL(pageUrl)
  const bare = `${url.host}${url.pathname}${url.search}${url.hash}`
  const encoded = encodeURIComponent(url.href)
  const tokenPocket = JSON.stringify({ url: url.href, chain: 'ETH', source: 'HOPE' })
  const okx = `okx://wallet/dapp/url?dappUrl=${encoded}`
  return [
    // docs.metamask.io: "Open a dapp inside the MetaMask in-app browser"
    { id: 'metamask', name: 'MetaMask', href: `https://link.metamask.io/dapp/${bare}` },
    // TokenPocket's deep link docs: tpdapp://open?params={"url", "chain", "source"}
    {
      id: 'tokenpocket',
      name: 'TokenPocket',
      href: `tpdapp://open?params=${encodeURIComponent(tokenPocket)}`,
    },
    // imToken's docs: open a DApp in its browser
    { id: 'imtoken', name: 'imToken', href: `imtokenv2://navigate/DappView?url=${encoded}` },
    // developer.trustwallet.com, Deep Linking, DApp Browser (coin 60: Ethereum)
    {
      id: 'trust',
      name: 'Trust Wallet',
      href: `https://link.trustwallet.com/open_url?coin_id=60&url=${encoded}`,
    },
    // OKX Wallet's docs: the app link wrapping okx://wallet/dapp/url
    {
      id: 'okx',
      name: 'OKX Wallet',
      href: `https://www.okx.com/download?deeplink=${encodeURIComponent(okx)}`,
    },
    // Bitget Wallet's docs: bkconnect with action=dapp
    {
      id: 'bitget',
      name: 'Bitget Wallet',
      href: `bitkeep://bkconnect?action=dapp&url=${encoded}`,
    },
  ]
}
