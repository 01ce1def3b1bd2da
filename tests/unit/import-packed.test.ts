// An import preview's rows never reach the request thread as objects: the CPU pool's analysis
// answers the questions the file asks the database and either its rows packed (bytes) or, for
// customers and team members, the file already checked as if nothing clashes; the request
// thread asks the database, and the pool marks the packed rows from the answers (or reads a
// clashing file again with them) and writes the stored chunks and the run's counts. Receiving
// 40,000 row objects held the request thread 130-200 ms (every other tenant's request waited).
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Piscina } from "piscina";
import run from "../../app/workers/cpu-tasks";
import type { CheckedFile, EncodedChunk, PackedFile } from "../../app/services/import/stored-chunks";
import {
  answersMarkNothing,
  answersThatMarkNothing,
  type DatabaseAnswers,
} from "../../app/services/import/database-checks";
import { runCpu } from "../../app/services/work/pool.server";
import { movableBuffers, type ImportAnalyseTask } from "../../app/services/work/tasks";

const decoded = (json: Uint8Array) => JSON.parse(new TextDecoder().decode(json));
const context = { timeZone: "UTC", rates: {} };

const task = (type: "customers" | "jobs" | "invoices", csv: string): ImportAnalyseTask => ({
  kind: "import-analyse",
  type,
  data: Buffer.from(csv),
  known: null,
  context,
});

/** A thread's answer as the request thread receives it (moved buffers or not). */
const valueOf = <T>(answer: unknown): T =>
  (answer && typeof answer === "object" && Piscina.valueSymbol in answer
    ? (answer as Record<symbol, unknown>)[Piscina.valueSymbol]
    : answer) as T;

const analyse = async (type: "customers" | "jobs" | "invoices", csv: string) =>
  valueOf<PackedFile>(await run(task(type, csv)));

const check = async (file: PackedFile, answers: DatabaseAnswers) =>
  valueOf<CheckedFile>(await run({ kind: "import-serialise", packed: file.packed!, answers }));

const storedErrors = (chunks: EncodedChunk[]) =>
  chunks.filter(([kind]) => kind === "errors").flatMap(([, , json]) => decoded(json) as [number, string, string][]);

describe("an import preview crosses the request thread without its rows", () => {
  it("a customers file: the questions and the file checked as if nothing clashes, no rows", async () => {
    const file = await analyse(
      "customers",
      "name,email,external_id\r\nAda,ada@example.com,C-1\r\nBea,bea@example.com,\r\nCy,ada@example.com,C-3\r\n",
    );
    assert.equal(file.ok, true);
    assert.equal(file.type, "customers");
    assert.equal(file.packed, undefined, "not packed: checked already");
    assert.equal("rows" in file, false, "no rows beside the questions");
    assert.deepEqual(file.questions.customers?.emails.sort(), ["ada@example.com", "bea@example.com"]);
    assert.deepEqual(file.questions.customers?.externalIds.sort(), ["C-1", "C-3"]);
    // The file's own duplicate e-mail is found without the database.
    assert.equal(file.unmarked!.summary.rowCount, 3);
    assert.equal(file.unmarked!.summary.invalidCount, 1);
    assert.deepEqual(storedErrors(file.unmarked!.chunks), [[4, "email", "Same email as row 2"]]);
  });

  it("answers that find a clash: the file is read again with them, and its rows marked", async () => {
    const csv = "name,email\r\nAda,ada@example.com\r\nBea,bea@example.com\r\nCy,cy@example.com\r\n";
    const file = await analyse("customers", csv);
    assert.equal(file.unmarked!.summary.invalidCount, 0);
    const answers: DatabaseAnswers = {
      customers: { byEmail: [["bea@example.com", "8d1c3b9e-0000-4000-8000-000000000001"]], byExternalId: [] },
    };
    assert.equal(answersMarkNothing("customers", answers), false);
    const { summary, chunks } = valueOf<CheckedFile>(await run({ ...task("customers", csv), answers }));
    assert.equal(summary.rowCount, 3);
    assert.equal(summary.invalidCount, 1);
    assert.equal(summary.errorCount, 1);
    assert.equal(summary.importableCount, 2);
    assert.deepEqual(storedErrors(chunks), [[3, "email", "A customer with this email already exists"]]);
    assert.ok(chunks.some(([kind]) => kind === "left_out"));
    assert.ok(
      file.unmarked!.chunks.some(([kind]) => kind === "records"),
      "without the clash: its records",
    );
  });

  it("answers that mark nothing are known by type, and only for types checked for clashes alone", () => {
    for (const type of ["customers", "team"] as const) {
      const none = answersThatMarkNothing(type)!;
      assert.equal(answersMarkNothing(type, none), true, type);
    }
    assert.equal(answersMarkNothing("team", { existing: { "user-email": ["x@example.com"] } }), false);
    assert.equal(answersMarkNothing("customers", { customers: { byEmail: [], byExternalId: [["C-1", "id"]] } }), false);
    for (const type of ["jobs", "quotes", "invoices"] as const) {
      assert.equal(answersThatMarkNothing(type), null, type);
      assert.equal(answersMarkNothing(type, {}), false, type);
    }
  });

  it("a jobs file is packed: it asks for its customers and assignees, and names what is missing", async () => {
    const file = await analyse(
      "jobs",
      "title,customer_email,assignee_email,external_id\r\nFix sink,ada@example.com,tech@example.com,J-1\r\nNew boiler,zed@example.com,,J-2\r\n",
    );
    assert.ok(file.packed instanceof Uint8Array && file.packed.byteLength > 0);
    assert.equal(file.unmarked, undefined);
    assert.deepEqual(file.questions.existing?.["job-external-id"]?.sort(), ["J-1", "J-2"]);
    assert.deepEqual(file.questions.existing?.["user-email"], ["tech@example.com"]);
    assert.deepEqual(file.questions.customers?.emails.sort(), ["ada@example.com", "zed@example.com"]);
    const { summary, chunks } = await check(file, {
      customers: { byEmail: [["ada@example.com", "8d1c3b9e-0000-4000-8000-000000000002"]], byExternalId: [] },
      existing: { "job-external-id": ["J-1"], "user-email": ["tech@example.com"] },
    });
    assert.equal(summary.invalidCount, 2);
    assert.deepEqual(storedErrors(chunks), [
      [2, "external_id", "A job with this external_id already exists"],
      [3, "customer_email", "No customer has this email. Import or add the customer first."],
    ]);
  });
});

// A 50,000-row file's packed bytes are tens of megabytes, its stored chunks twenty: copied at
// each crossing (structured clone), they held the preview about a second on this machine
// (docs/decisions/513). They move instead: the sender's view is emptied.
describe("a large file's bytes move between the threads, not copied", () => {
  const jobs = [
    "title,customer_email,external_id",
    ...Array.from({ length: 3000 }, (_, i) => `Job ${i},c${i % 300}@example.com,J-${i}`),
  ].join("\r\n");
  const customers = ["name,email", ...Array.from({ length: 3000 }, (_, i) => `Customer ${i},c${i}@example.com`)].join(
    "\r\n",
  );
  const found = (emails: string[]): DatabaseAnswers => ({
    customers: {
      byEmail: emails.map((e, i) => [e, `8d1c3b9e-0000-4000-8000-${String(i).padStart(12, "0")}`]),
      byExternalId: [],
    },
  });
  after(async () => {
    const hooks = (globalThis as { __stopHooks?: Set<() => Promise<void>> }).__stopHooks ?? new Set();
    for (const stop of hooks) await stop();
  });

  it("the thread's answers move the packed bytes and the chunks' bytes", async () => {
    const answer = (await run(task("jobs", jobs))) as Record<symbol, unknown>;
    assert.ok(Piscina.transferableSymbol in answer, "the analysis answers a movable value");
    const file = answer[Piscina.valueSymbol] as PackedFile;
    assert.deepEqual(answer[Piscina.transferableSymbol], [file.packed!.buffer]);

    const checked = (await run({
      kind: "import-serialise",
      packed: file.packed!,
      answers: found(file.questions.customers!.emails),
    })) as Record<symbol, unknown>;
    const value = checked[Piscina.valueSymbol] as CheckedFile;
    const moved = checked[Piscina.transferableSymbol] as ArrayBuffer[];
    const large = value.chunks.filter(([, , json]) => json.byteLength > Buffer.poolSize);
    assert.ok(large.length > 0);
    assert.equal(moved.length, large.length);
    for (const [, , json] of large) assert.ok(moved.includes(json.buffer as ArrayBuffer));

    const unmarked = (await run(task("customers", customers))) as Record<symbol, unknown>;
    const checkedFile = (unmarked[Piscina.valueSymbol] as PackedFile).unmarked!;
    assert.ok(
      (unmarked[Piscina.transferableSymbol] as ArrayBuffer[]).includes(checkedFile.chunks[0][2].buffer as ArrayBuffer),
    );
  });

  it("through the pool: the request thread's packed bytes go to the thread, the chunks arrive whole", async () => {
    const tenant = "8d1c3b9e-0000-4000-8000-00000000000a";
    const file = await runCpu<PackedFile>(tenant, task("jobs", jobs));
    const sent = file.packed!;
    assert.ok(sent.byteLength > Buffer.poolSize);
    const { summary, chunks } = await runCpu<CheckedFile>(
      tenant,
      { kind: "import-serialise", packed: sent, answers: found(file.questions.customers!.emails) },
      movableBuffers(sent),
    );
    assert.equal(sent.byteLength, 0, "moved: the sender's view is empty");
    assert.equal(summary.rowCount, 3000);
    assert.equal(summary.invalidCount, 0);
    const records = chunks.filter(([kind]) => kind === "records").flatMap(([, , json]) => decoded(json) as unknown[]);
    assert.equal(records.length, 3000);
  });

  it("a small Buffer from Node's shared pool is copied, never moved", () => {
    const small = Buffer.from("name\r\nAda\r\n");
    assert.deepEqual(movableBuffers(small), []);
    assert.deepEqual(
      movableBuffers(new Uint8Array(new ArrayBuffer(Buffer.poolSize * 4), 8)),
      [],
      "a view of part of its memory",
    );
    const own = new Uint8Array(Buffer.poolSize * 4);
    assert.deepEqual(movableBuffers(own, own), [own.buffer]);
  });
});
