import fs from "node:fs";
import path from "node:path";

// The build's stylesheets, as remix-serve serves them (public/build under the working
// directory); read once each, they never change under a hashed name.
const PUBLIC = path.join(process.cwd(), "public");
const BUILD = path.join(PUBLIC, "build") + path.sep;

/** The file behind a stylesheet URL of the build, or null (another URL, or one leaving the build). */
function builtStylesheet(href: string): string | null {
  if (!/^[\w./-]+\.css$/.test(href)) return null;
  const file = path.join(PUBLIC, href);
  return file.startsWith(BUILD) ? file : null;
}
const texts = new Map<string, string | null>();

/** The text of one of the build's stylesheets, to put inline in a page; null for any other URL. */
export function stylesheetText(href: string): string | null {
  let text = texts.get(href);
  if (text !== undefined) return text;
  text = null;
  const file = builtStylesheet(href);
  if (file) {
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      text = null;
    }
    // A stylesheet that could end its <style> element early stays a link.
    if (text !== null && /<\/style/i.test(text)) text = null;
  }
  texts.set(href, text);
  return text;
}
