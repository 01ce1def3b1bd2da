import { createContext, useContext } from "react";

/**
 * Keeps a piece of server-rendered markup per content (server only: entry.server provides it;
 * in the browser there is none and the piece renders as usual, hydrating the same markup).
 * `inputs` must be everything `render` reads: the kept markup is served for equal inputs. What
 * it returns stands for that markup in the page (the markup itself, or a marker the page's
 * writer fills with the kept bytes).
 * The rendered element must not use the router's or the root's data (it is rendered on its own).
 */
export type KeepMarkup = (kind: string, inputs: unknown, render: () => React.ReactElement) => string;

const KeptMarkupContext = createContext<KeepMarkup | null>(null);
export const KeptMarkupProvider = KeptMarkupContext.Provider;
export const useKeptMarkup = () => useContext(KeptMarkupContext);

/**
 * An element whose content is the kept markup. The nested render runs here, in a component that
 * calls no hooks (React's server renderer restores its own state around a nested render, but not
 * a half-run component's hooks).
 */
export function Kept({
  tag: Tag,
  keep,
  kind,
  inputs,
  render,
  ...props
}: React.HTMLAttributes<HTMLElement> & {
  tag: "div" | "section";
  keep: KeepMarkup;
  kind: string;
  inputs: unknown;
  render: () => React.ReactElement;
}) {
  return <Tag {...props} dangerouslySetInnerHTML={{ __html: keep(kind, inputs, render) }} />;
}
