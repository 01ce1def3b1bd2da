/**
 * `npx tsx bench/assistant-engine.ts`: the rules engine's own cost per call, without HTTP,
 * session or CSRF, for the bench request, the corroded-vent request, the golden set in
 * all three modes, the request set in all three modes, requests full of words never seen before
 * (each one goes through the spelling correction uncached), and a 5,000-character details field
 * (the form's limit). Prints the mean and
 * the p99 of single calls (wall clock) and the mean CPU time per call (process.cpuUsage, which a
 * busy machine disturbs less), in microseconds.
 */
import { generateGuidance, type GuidanceInput } from "../app/services/assistant/engine";
import { GOLDEN } from "../tests/unit/assistant-golden.cases";
import { GOLDEN_REQUESTS } from "../tests/unit/assistant-requests.golden";

function measure(name: string, inputs: readonly GuidanceInput[], rounds: number, warmUp = 500) {
  for (let i = 0; i < warmUp; i++) for (const input of inputs) generateGuidance(input); // warm-up (JIT)
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let r = 0; r < rounds; r++) {
    for (const input of inputs) {
      const t0 = process.hrtime.bigint();
      generateGuidance(input);
      times.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuMean = (cpu.user + cpu.system) / times.length;
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const p99 = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))];
  console.log(
    `${name.padEnd(48)} calls ${String(times.length).padStart(6)}  mean ${mean.toFixed(1).padStart(7)} us  p99 ${p99.toFixed(1).padStart(7)} us  cpu ${cpuMean.toFixed(1).padStart(6)} us`,
  );
}

const longDetails = (
  "Customer says the 20 year old gas water heater in the garage is leaking and the vent is corroded; " +
  "two-story house, tight closet upstairs, no parking on the street, wants it done today if possible. "
)
  .repeat(30)
  .slice(0, 5000);

measure(
  "bench request (quote, 50 gal water heater, attic)",
  [{ mode: "quote", jobTitle: "Replace 50 gal water heater", details: "Two-story house, heater in the attic" }],
  2000,
);
measure(
  "issue request (quote, garage, corroded vent)",
  [{ mode: "quote", jobTitle: "replace 50 gallon gas water heater in garage, existing venting corroded" }],
  2000,
);
measure(
  `golden set x 3 modes (${GOLDEN.length * 3} inputs)`,
  GOLDEN.flatMap((c) =>
    (["quote", "schedule", "general"] as const).map((mode) => ({ mode, jobTitle: c.title, details: c.details })),
  ),
  20,
);
measure(
  "5,000-character details (quote)",
  [{ mode: "quote", jobTitle: "Water heater replacement", details: longDetails }],
  300,
);
measure(
  `request set x 3 modes (${GOLDEN_REQUESTS.length * 3} inputs)`,
  GOLDEN_REQUESTS.flatMap((c) =>
    (["quote", "schedule", "general"] as const).map((mode) => ({ mode, jobTitle: c.title, details: c.details })),
  ),
  20,
);

// Words no table uses, different in every request (a fixed sequence, so runs compare): each is
// looked up by the spelling correction for the first time.
let seed = 1;
function unseenWord(): string {
  let w = "";
  for (let i = 0; i < 7; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    w += String.fromCharCode(97 + (seed % 26));
  }
  return w;
}
measure(
  "30 unseen words per request (quote, toilet running)",
  Array.from({ length: 4000 }, () => ({
    mode: "quote" as const,
    jobTitle: "toliet keeps running",
    details: Array.from({ length: 30 }, unseenWord).join(" "),
  })),
  1,
  0,
);
