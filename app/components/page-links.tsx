import type { LinkDescriptor } from "@remix-run/node";
import { UNSAFE_RemixContext, useMatches } from "@remix-run/react";
import { createContext, useContext, type ReactElement } from "react";
import { useNonce } from "./nonce";

/**
 * The text of one of the build's stylesheets by its URL, or null: given by the server
 * (app/entry.server.tsx), so the first answer carries its CSS inline.
 */
const StylesheetText = createContext<((href: string) => string | null) | null>(null);
export const StylesheetTextProvider = StylesheetText.Provider;

/** In the browser: the text of a stylesheet the page still holds inline (the server's answer put it there). */
function heldInline(href: string): string | null {
  if (typeof document === "undefined") return null;
  for (const style of document.querySelectorAll("style[data-href]")) {
    if (style.getAttribute("data-href") === href) return style.textContent;
  }
  return null;
}

/**
 * The page's links, as Remix's `<Links />` gives them (every matched route's `links`), but its
 * stylesheets inline on the first answer: a phone on a slow network paints the page without
 * first waiting for a round trip per stylesheet. A stylesheet a later page needs (a client-side
 * navigation) comes as a `<link>` as usual, cached for a year by its hashed name; one the page
 * still holds inline stays inline (the same element, so hydration and CSP nonces hold).
 */
export function PageLinks() {
  const routeModules = useContext(UNSAFE_RemixContext)?.routeModules ?? {};
  const matches = useMatches();
  const serverText = useContext(StylesheetText);
  const nonce = useNonce();
  const seen = new Set<string>();
  const out: ReactElement[] = [];
  for (const match of matches) {
    const descriptors = (routeModules[match.id]?.links?.() ?? []) as LinkDescriptor[];
    for (const link of descriptors) {
      if (!("href" in link) || !link.href) continue;
      const key = `${link.rel} ${link.href}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const text = link.rel === "stylesheet" ? (serverText ? serverText(link.href) : heldInline(link.href)) : null;
      out.push(
        text === null ? (
          <link key={key} {...link} />
        ) : (
          <style
            key={key}
            data-href={link.href}
            nonce={nonce || undefined}
            suppressHydrationWarning
            dangerouslySetInnerHTML={{ __html: text }}
          />
        ),
      );
    }
  }
  return <>{out}</>;
}
