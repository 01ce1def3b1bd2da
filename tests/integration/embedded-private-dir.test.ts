import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { ROOT } from "../helpers/server";

// Issue 26, point 8: a clone inside a private directory (mode 0700, like /root), run as root.
// PostgreSQL runs as the `postgres` system user, who cannot enter that directory: the embedded
// database must still start (binaries and data placed where that user can reach them).
const asRoot = process.getuid?.() === 0;

test(
  "as root, in a clone under a directory with mode 0700, the embedded database starts and migrates",
  { skip: !asRoot && "runs only as root (the case is root's)" },
  () => {
    const privateDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldwork-private-"));
    fs.chmodSync(privateDir, 0o700);
    const clone = path.join(privateDir, "fieldwork");
    const placed: string[] = [];
    const copies = () =>
      new Set(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith("fieldwork-embedded-postgres-")));
    const copiesBefore = copies();
    try {
      // The working tree's files as a clone would hold them, and node_modules as hard links.
      const files = spawnSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: ROOT, encoding: "utf8" })
        .stdout.split("\0")
        .filter(Boolean);
      assert.ok(files.length > 100, `git ls-files gave ${files.length} files`);
      for (const file of files) {
        if (!fs.existsSync(path.join(ROOT, file))) continue; // deleted, not yet committed
        fs.mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
        fs.copyFileSync(path.join(ROOT, file), path.join(clone, file));
      }
      assert.equal(
        spawnSync("cp", ["-al", path.join(ROOT, "node_modules"), path.join(clone, "node_modules")]).status,
        0,
      );

      const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "development" };
      delete env.DATABASE_URL;
      delete env.DATA_DIR;
      const run = spawnSync(path.join(clone, "node_modules", ".bin", "tsx"), ["scripts/db.ts", "migrate"], {
        cwd: clone,
        env,
        encoding: "utf8",
        timeout: 240_000,
      });
      const output = `${run.stdout}\n${run.stderr}`;
      const where = /its data is kept in (\S+) instead\./.exec(output)?.[1];
      if (where) placed.push(path.dirname(where));
      assert.equal(run.status, 0, output);
      assert.match(output, /Applied: 0001-foundation/);
      assert.doesNotMatch(output, /EACCES|\n\s+at /, "no permission error, no stack trace");
      assert.ok(
        where && fs.existsSync(path.join(where, "PG_VERSION")),
        `the data directory is said and holds the cluster: ${output}`,
      );

      // A second start finds the same data (nothing to migrate).
      const again = spawnSync(path.join(clone, "node_modules", ".bin", "tsx"), ["scripts/db.ts", "migrate"], {
        cwd: clone,
        env,
        encoding: "utf8",
        timeout: 240_000,
      });
      assert.equal(again.status, 0, `${again.stdout}\n${again.stderr}`);
      assert.match(again.stdout, /Nothing to migrate\./);
    } finally {
      fs.rmSync(privateDir, { recursive: true, force: true });
      for (const dir of placed) fs.rmSync(dir, { recursive: true, force: true });
      for (const name of copies())
        if (!copiesBefore.has(name)) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    }
  },
);
