/**
 * The body of a route whose screen is not built yet: the layout already shows its translated
 * title in the bar, and the body stays empty rather than showing invented content.
 */
export function BlankScreen({ name }: { name: string }) {
  return <section className="blank-screen" data-testid={`screen-${name}`} />
}
