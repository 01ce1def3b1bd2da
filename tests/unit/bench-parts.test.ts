import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { test } from "node:test";
import {
  BENCH_PARTS,
  PAGE_MEASURES,
  PART_THREE,
  PART_TWO,
  coverages,
  partsToRun,
  type Coverage,
} from "../../bench/parts";

// `npm run bench` measures every figure of BENCHMARKS.md parts two and three: each row of those
// tables is named in bench/parts.ts with the part that measures it, every such part runs in the
// whole run and alone, the figures it names are the ones its files report, and a page figure
// comes with p50 alone, p99, throughput and CPU per request (measured here on a tiny server).
const ROOT = path.resolve(import.meta.dirname, "../..");
const benchmarksFile = [path.join(ROOT, "../shared/BENCHMARKS.md"), path.join(ROOT, "../../shared/BENCHMARKS.md")].find(
  (f) => fs.existsSync(f),
);

/** The first cells of the table under a `## <heading>` of BENCHMARKS.md. */
function rowsOf(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`## ${heading}`);
  assert.ok(start >= 0, `BENCHMARKS.md has "## ${heading}"`);
  const end = markdown.indexOf("\n## ", start + 3);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| figure") && !line.startsWith("| ---"))
    .map((line) => line.split(" | ")[0].slice(2).trim());
}

test(
  "every row of BENCHMARKS.md parts two and three is measured by a part, and no named row is stale",
  { skip: benchmarksFile ? false : "BENCHMARKS.md is not beside the repository" },
  () => {
    const markdown = fs.readFileSync(benchmarksFile!, "utf8");
    for (const [heading, registry] of [
      ["Part two (the business day)", PART_TWO],
      ["Part three (the work as it really comes)", PART_THREE],
    ] as const) {
      const rows = rowsOf(markdown, heading);
      assert.ok(rows.length >= 9, `${heading}: ${rows.length} rows`);
      for (const row of rows) assert.ok(registry[row], `${heading}: "${row}" is measured by no part in bench/parts.ts`);
      for (const named of Object.keys(registry)) assert.ok(rows.includes(named), `${heading}: "${named}" is no row`);
    }
  },
);

test("each covered figure is named by its part's files, and its part runs in the whole run and alone", () => {
  const all: Coverage[] = [...Object.values(PART_TWO), ...Object.values(PART_THREE)].flatMap(coverages);
  assert.deepEqual(
    partsToRun(undefined).map((p) => p.key),
    BENCH_PARTS.map((p) => p.key),
  );
  const run = fs.readFileSync(path.join(ROOT, "bench/run.ts"), "utf8");
  for (const c of all) {
    const part = BENCH_PARTS.find((p) => p.key === c.part);
    assert.ok(part, `part ${c.part} is in BENCH_PARTS`);
    assert.deepEqual(partsToRun(c.part.toLowerCase()), [part], `BENCH_ONLY=${c.part} runs it alone`);
    assert.match(run, new RegExp(`\\n  ${c.part}: `), `bench/run.ts runs ${c.part}`);
    const source = part.files.map((f) => fs.readFileSync(path.join(ROOT, f), "utf8")).join("\n");
    for (const name of [...(c.pages ?? []), ...(c.figures ?? [])]) {
      const literal = name.replace(/^(P2|TS) /, "");
      assert.ok(source.includes(literal), `${c.part} (${part.files.join(", ")}) reports "${name}"`);
    }
  }
  assert.throws(() => partsToRun("NOPE"), /no such part/);
});

test("part two's pages and quote creation are the pages the registry names", async () => {
  const { partTwoTargets, quoteCreationTarget } = await import("../../bench/part-two");
  const big = { customerId: "c", weekDate: "2026-11-23", feedPath: "/calendar/x.ics", pdfInvoiceId: "i", csrf: "t" };
  const names = [...partTwoTargets(big), quoteCreationTarget(big)].map((t) => t.name);
  const wanted = [...Object.values(PART_TWO), ...Object.values(PART_THREE)]
    .flatMap(coverages)
    .filter((c) => c.part === "P2")
    .flatMap((c) => c.pages ?? []);
  for (const page of wanted) assert.ok(names.includes(page), `part two measures "${page}"`);
});

test("a page figure is reported with p50 alone, p99, throughput and CPU per request", async () => {
  process.env.BENCH_P2_SECONDS = "1";
  const { measureTarget } = await import("../../bench/part-two");
  const server = http.createServer((_req, res) => res.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const figures = await measureTarget(
      { url: `http://127.0.0.1:${port}`, child: { pid: process.pid } } as never,
      { cookie: "", origin: "" },
      { name: "tiny page", path: "/", connections: 2, p99: 100, alone: 40 },
      20_000,
    );
    const names = figures.map((f) => f.name);
    assert.equal(PAGE_MEASURES.length, 4);
    for (const measure of PAGE_MEASURES)
      assert.ok(
        names.some((n) => n.startsWith("tiny page ") && n.includes(measure)),
        `${measure} in ${names.join("; ")}`,
      );
    assert.ok(figures.every((f) => Number.isFinite(f.value)));
  } finally {
    server.close();
  }
});
