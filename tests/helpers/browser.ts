import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before } from "node:test";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { BASE_URL } from "./client";

/** CHROMIUM_PATH, else the `chromium` on the PATH; null when there is none. */
export function findChromium(): string | null {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return fs.existsSync(configured) ? configured : null;
  for (const name of ["chromium", "chromium-browser"]) {
    try {
      const found = execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
      if (found) return found;
    } catch {
      /* not this one */
    }
  }
  return null;
}

export const SKIP_BROWSER = findChromium()
  ? false
  : "Chromium not found (set CHROMIUM_PATH or install chromium): browser test skipped";

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium()!,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

/** Launches Chromium before the enclosing suite's tests and closes it after them. */
export function withBrowser(use: (browser: Browser) => void) {
  let browser: Browser | undefined;
  before(async () => {
    browser = await launch();
    use(browser);
  });
  after(async () => {
    await browser?.close();
  });
}

/** A browser context, with JavaScript on or off, whose pages resolve relative URLs against the test server. */
export async function newContext(
  browser: Browser,
  opts: { javaScript: boolean; base?: string },
): Promise<BrowserContext> {
  return browser.newContext({
    javaScriptEnabled: opts.javaScript,
    baseURL: opts.base ?? BASE_URL,
    viewport: { width: 1280, height: 900 },
  });
}

/** The phone the browser tests use: 390 px wide, touch, mobile viewport. */
export const PHONE = { width: 390, height: 844 };

/** A browser context on that phone, with JavaScript on or off, resolving URLs against the test server. */
export function phoneContext(browser: Browser, opts: { javaScript: boolean }): Promise<BrowserContext> {
  return browser.newContext({
    javaScriptEnabled: opts.javaScript,
    baseURL: BASE_URL,
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
  });
}

export const ARTIFACTS = path.resolve(import.meta.dirname, "../.artifacts");

/**
 * Saves a screenshot to tests/.artifacts/<name>.png (to look at what the pages show): the
 * whole page, or with `{ fullPage: false }` only what is in the window (what the user sees).
 */
export async function screenshot(page: Page, name: string, o: { fullPage?: boolean } = {}) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: o.fullPage ?? true });
}

/**
 * Whether an <img> shows a picture (not a broken image), waiting for it if it is still loading:
 * an element that has just appeared may not have fetched its picture yet.
 */
export function imageLoaded(img: Locator, minWidth = 1): Promise<boolean> {
  return img.evaluate(
    (el: HTMLImageElement, min: number) =>
      el.complete
        ? el.naturalWidth >= min
        : new Promise<boolean>((resolve) => {
            el.addEventListener("load", () => resolve(el.naturalWidth >= min), { once: true });
            el.addEventListener("error", () => resolve(false), { once: true });
          }),
    minWidth,
  );
}

/** Whether the whole of the element is inside the window as the page is now scrolled. */
export async function inWindow(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return !!box && box.y >= 0 && box.y + box.height <= size.height && box.x >= 0 && box.x + box.width <= size.width;
}

/** Collects the page's console errors and uncaught exceptions, to assert there are none. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => (m.type() === "error" ? errors.push(m.text()) : undefined));
  return errors;
}

/** Signs in through the login form (works with JavaScript on or off). */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await Promise.all([
    page.waitForURL((u) => !u.pathname.startsWith("/login")),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
  // With JavaScript the URL changes before the next page renders; wait until the login form is gone.
  await page.getByRole("button", { name: "Sign in" }).waitFor({ state: "detached" });
}

/** Both JavaScript modes, for tests that run every form with JavaScript off and on. */
export const JS_MODES = [
  { javaScript: false, label: "JavaScript off" },
  { javaScript: true, label: "JavaScript on" },
] as const;

const AXE_SOURCE = path.resolve(import.meta.dirname, "../../node_modules/axe-core/axe.min.js");
let axeSource: string | undefined;

export type AxeFinding = { id: string; impact: string; help: string; targets: string[] };

/**
 * axe-core's serious and critical findings on the page as it is now. axe is evaluated through
 * the debugger protocol, so the page's CSP (own scripts only) does not stop it. A page opened
 * with JavaScript off runs no timers, which axe needs: pass `javaScript: false` and the page's
 * current document (its scripts removed, so nothing hydrates) is checked in a scripting page
 * at the same address, with the same stylesheets and viewport.
 */
export async function seriousAxeViolations(page: Page, opts: { javaScript?: boolean } = {}): Promise<AxeFinding[]> {
  if (opts.javaScript !== false) return runAxe(page);
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const url = page.url();
  const copy = await page
    .context()
    .browser()!
    .newContext({ viewport: page.viewportSize() ?? undefined });
  try {
    const p = await copy.newPage();
    await p.route(url, (r) => r.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
    await p.goto(url, { waitUntil: "load" });
    return await runAxe(p);
  } finally {
    await copy.close();
  }
}

async function runAxe(page: Page): Promise<AxeFinding[]> {
  axeSource ??= fs.readFileSync(AXE_SOURCE, "utf8");
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === "object");
  if (!loaded) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Result = {
      violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown[] }> }>;
    };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<Result> } }).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
      }));
  });
}

/** Fails with every serious or critical axe-core finding (rule, help and where) on the page. */
export async function expectNoSeriousAxeViolations(page: Page, name: string, opts: { javaScript?: boolean } = {}) {
  const found = await seriousAxeViolations(page, opts);
  if (found.length) {
    const lines = found.map((f) => `  ${f.impact} ${f.id}: ${f.help}\n    at ${f.targets.join("\n    at ")}`);
    throw new Error(
      `${name} (${page.url()}): ${found.length} serious or critical accessibility problem(s)\n${lines.join("\n")}`,
    );
  }
}
