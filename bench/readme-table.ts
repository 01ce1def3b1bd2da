/**
 * `npx tsx bench/readme-table.ts [results file ...]`: the README's Performance table, in
 * Markdown, from what `npm run bench` wrote (bench/results/latest.json by default; give the part
 * files, e.g. b2.json p2.json, to put parts run alone into one table). Each part's run is named
 * (date, commit, machine), so the table never mixes figures without saying so.
 */
import fs from "node:fs";
import path from "node:path";
import { NORMAL_FLOOR, type Figure } from "./lib";
import { ROOT } from "../tests/helpers/server";

type Results = {
  date: string;
  commit: string;
  machine: { cores: number; node: string; postgres: string };
  seconds: number;
  figures: Figure[];
};

const files = process.argv.slice(2);
const runs = (files.length ? files : ["latest.json"]).map((f) => {
  const file = path.isAbsolute(f) ? f : path.join(ROOT, "bench/results", path.basename(f));
  return { name: path.basename(file), ...(JSON.parse(fs.readFileSync(file, "utf8")) as Results) };
});

const cell = (s: string) => s.replace(/\|/g, "\\|");
const lines: string[] = [];
for (const r of runs)
  lines.push(
    `- \`${r.name}\`: ${r.date.slice(0, 16).replace("T", " ")} UTC, commit ${r.commit.slice(0, 8)}, ` +
      `${r.machine.cores} cores, Node ${r.machine.node}, PostgreSQL ${r.machine.postgres}, ${r.seconds} s`,
  );
lines.push("");
lines.push(`| figure | value | at a ${NORMAL_FLOOR.toLocaleString("en-US")} req/s floor | goal | met | run |`);
lines.push("| --- | --- | --- | --- | --- | --- |");
for (const r of runs)
  for (const f of r.figures)
    lines.push(
      `| ${cell(f.name)} | ${f.value} ${f.unit} | ${f.normalised === undefined ? "" : `${f.normalised} ${f.unit}`} | ` +
        `${cell(f.goal)} | ${f.met === null ? "-" : f.met ? "yes" : "NO"} | ${r.name} |`,
    );
console.log(lines.join("\n"));
