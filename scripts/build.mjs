// The one way the app is built: `remix build` in production mode, skipped when nothing changed
// since the last build made here. `npm start`, `npm test` and `npm run bench` all use it, so a
// restart of an unchanged checkout starts in about a second instead of rebuilding for two.
// The build records a hash of every input (app/, db/, public/ but its build/, the configs and
// the lockfile) and of the bundle it made; a missing or different hash, or a missing output,
// means `remix build`. Run directly (`node scripts/build.mjs`), it builds if stale.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const STAMP = path.join(ROOT, "build/.source-hash");
const INPUTS = ["app", "db", "public", "remix.config.js", "tsconfig.json", "package.json", "package-lock.json"];
const SKIP = new Set([path.join(ROOT, "public/build")]);

function* files(p) {
  if (SKIP.has(p) || !fs.existsSync(p)) return;
  const stat = fs.statSync(p);
  if (stat.isFile()) {
    yield p;
    return;
  }
  for (const name of fs.readdirSync(p).sort()) yield* files(path.join(p, name));
}

function sourceHash() {
  const hash = createHash("sha256");
  for (const input of INPUTS) {
    for (const file of files(path.join(ROOT, input))) {
      hash.update(path.relative(ROOT, file)).update("\0").update(fs.readFileSync(file)).update("\0");
    }
  }
  return hash.digest("hex");
}

// The stamp names the sources AND the server bundle they made: a build by another command
// (`remix dev` writes a development bundle to the same place) no longer matches it.
const bundleHash = () =>
  createHash("sha256")
    .update(fs.readFileSync(path.join(ROOT, "build/index.js")))
    .digest("hex");

/** Builds the production app unless the last build here was of these very sources. */
export function buildIfStale() {
  const sources = sourceHash();
  const outputs = ["build/index.js", "public/build"].every((p) => fs.existsSync(path.join(ROOT, p)));
  const stamp = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, "utf8").trim() : null;
  if (outputs && stamp === `${sources} ${bundleHash()}` && !process.env.FORCE_BUILD) return false;
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/@remix-run/dev/dist/cli.js"), "build"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  fs.writeFileSync(STAMP, `${sources} ${bundleHash()}\n`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) buildIfStale();
