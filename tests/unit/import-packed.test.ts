// An import preview's rows never reach the request thread as objects: the CPU pool's analysis
// answers an analysed file packed (its bytes and the questions it asks the database), and its
// second task marks the rows from the database's answers and writes the stored chunks and the
// run's counts. Receiving 40,000 row objects held the request thread 130-200 ms (every other
// tenant's request waited), and sending them back as long again.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Piscina } from "piscina";
import run from "../../app/workers/cpu-tasks";
import type { CheckedSummary, EncodedChunk, PackedFile } from "../../app/services/import/stored-chunks";
import type { DatabaseAnswers } from "../../app/services/import/database-checks";
import { runCpu } from "../../app/services/work/pool.server";
import { movableBuffers } from "../../app/services/work/tasks";

type Checked = { summary: CheckedSummary; chunks: EncodedChunk[] };
const decoded = (json: Uint8Array) => JSON.parse(new TextDecoder().decode(json));

const analyse = async (type: "customers" | "jobs" | "invoices", csv: string) =>
  (await run({
    kind: "import-analyse",
    type,
    data: Buffer.from(csv),
    known: null,
    context: { timeZone: "UTC", rates: {} },
  })) as PackedFile;

const check = async (file: PackedFile, answers: DatabaseAnswers) =>
  (await run({ kind: "import-serialise", file, answers })) as Checked;

const storedErrors = (chunks: EncodedChunk[]) =>
  chunks.filter(([kind]) => kind === "errors").flatMap(([, , json]) => decoded(json) as [number, string, string][]);

describe("an import preview crosses the request thread packed", () => {
  it("the analysis answers bytes and the database's questions, not rows", async () => {
    const file = await analyse(
      "customers",
      "name,email,external_id\r\nAda,ada@example.com,C-1\r\nBea,bea@example.com,\r\nCy,ada@example.com,C-3\r\n",
    );
    assert.equal(file.ok, true);
    assert.equal(file.type, "customers");
    assert.ok(file.packed instanceof Uint8Array && file.packed.byteLength > 0);
    assert.equal("rows" in file, false, "no rows beside the packed bytes");
    assert.deepEqual(file.questions.customers?.emails.sort(), ["ada@example.com", "bea@example.com"]);
    assert.deepEqual(file.questions.customers?.externalIds.sort(), ["C-1", "C-3"]);
  });

  it("the answers mark the rows; the chunks and the counts come back from the pool", async () => {
    const file = await analyse(
      "customers",
      "name,email\r\nAda,ada@example.com\r\nBea,bea@example.com\r\nCy,cy@example.com\r\n",
    );
    const { summary, chunks } = await check(file, {
      customers: { byEmail: [["bea@example.com", "8d1c3b9e-0000-4000-8000-000000000001"]], byExternalId: [] },
    });
    assert.equal(summary.rowCount, 3);
    assert.equal(summary.invalidCount, 1);
    assert.equal(summary.errorCount, 1);
    assert.equal(summary.importableCount, 2);
    assert.deepEqual(storedErrors(chunks), [[3, "email", "A customer with this email already exists"]]);
    assert.ok(chunks.some(([kind]) => kind === "left_out"));

    const clean = await check(file, { customers: { byEmail: [], byExternalId: [] } });
    assert.equal(clean.summary.invalidCount, 0);
    assert.equal(clean.summary.importableCount, null);
    assert.ok(clean.chunks.some(([kind]) => kind === "records"));
  });

  it("a jobs file asks for its customers and assignees, and names what is missing", async () => {
    const file = await analyse(
      "jobs",
      "title,customer_email,assignee_email,external_id\r\nFix sink,ada@example.com,tech@example.com,J-1\r\nNew boiler,zed@example.com,,J-2\r\n",
    );
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
// (decision 511's last section). They move instead: the sender's view is emptied.
describe("a large file's bytes move between the threads, not copied", () => {
  const csv = [
    "name,email,city",
    ...Array.from({ length: 3000 }, (_, i) => `Customer ${i},c${i}@example.com,Town ${i % 40}`),
  ].join("\r\n");
  const context = { timeZone: "UTC", rates: {} };
  after(async () => {
    const hooks = (globalThis as { __stopHooks?: Set<() => Promise<void>> }).__stopHooks ?? new Set();
    for (const stop of hooks) await stop();
  });

  it("the thread's answer moves the packed bytes and the chunks' bytes", async () => {
    const answer = (await run({
      kind: "import-analyse",
      type: "customers",
      data: Buffer.from(csv),
      known: null,
      context,
    })) as Record<symbol, unknown>;
    assert.ok(Piscina.transferableSymbol in answer, "the analysis answers a movable value");
    const file = answer[Piscina.valueSymbol] as PackedFile;
    assert.deepEqual(answer[Piscina.transferableSymbol], [file.packed.buffer]);

    const checked = (await run({
      kind: "import-serialise",
      file,
      answers: { customers: { byEmail: [], byExternalId: [] } },
    })) as Record<symbol, unknown>;
    const value = checked[Piscina.valueSymbol] as Checked;
    const moved = checked[Piscina.transferableSymbol] as ArrayBuffer[];
    const large = value.chunks.filter(([, , json]) => json.byteLength > Buffer.poolSize);
    assert.ok(large.length > 0);
    assert.deepEqual(moved.length, large.length);
    for (const [, , json] of large) assert.ok(moved.includes(json.buffer as ArrayBuffer));
  });

  it("through the pool: the request thread's packed bytes go to the thread, the chunks arrive whole", async () => {
    const tenant = "8d1c3b9e-0000-4000-8000-00000000000a";
    const file = await runCpu<PackedFile>(tenant, {
      kind: "import-analyse",
      type: "customers",
      data: Buffer.from(csv),
      known: null,
      context,
    });
    const sent = file.packed;
    const size = sent.byteLength;
    assert.ok(size > Buffer.poolSize);
    const { summary, chunks } = await runCpu<Checked>(
      tenant,
      { kind: "import-serialise", file, answers: { customers: { byEmail: [], byExternalId: [] } } },
      movableBuffers(file.packed),
    );
    assert.equal(sent.byteLength, 0, "moved: the sender's view is empty");
    assert.equal(summary.rowCount, 3000);
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
