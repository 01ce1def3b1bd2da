import fs from "node:fs";
import path from "node:path";

// The build's stylesheets, as remix-serve serves them (public/build/_assets under the working
// directory); read once each, they never change under a hashed name.
const ASSETS = /^\/build\/_assets\/[\w.-]+\.css$/;
const texts = new Map<string, string | null>();

/** The text of one of the build's stylesheets, to put inline in a page; null for any other URL. */
export function stylesheetText(href: string): string | null {
  let text = texts.get(href);
  if (text !== undefined) return text;
  text = null;
  if (ASSETS.test(href)) {
    try {
      text = fs.readFileSync(path.join(process.cwd(), "public", href), "utf8");
    } catch {
      text = null;
    }
    // A stylesheet that could end its <style> element early stays a link.
    if (text !== null && /<\/style/i.test(text)) text = null;
  }
  texts.set(href, text);
  return text;
}
