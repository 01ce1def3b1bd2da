// An import preview's rows never reach the request thread as objects: the CPU pool's analysis
// answers an analysed file packed (its bytes and the questions it asks the database), and its
// second task marks the rows from the database's answers and writes the stored chunks and the
// run's counts. Receiving 40,000 row objects held the request thread 130-200 ms (every other
// tenant's request waited), and sending them back as long again.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import run from "../../app/workers/cpu-tasks";
import type { PackedFile, checkedChunks } from "../../app/services/import/stored-chunks";
import type { DatabaseAnswers } from "../../app/services/import/database-checks";

const analyse = async (type: "customers" | "jobs" | "invoices", csv: string) =>
  (await run({
    kind: "import-analyse",
    type,
    data: Buffer.from(csv),
    known: null,
    context: { timeZone: "UTC", rates: {} },
  })) as PackedFile;

const check = async (file: PackedFile, answers: DatabaseAnswers) =>
  (await run({ kind: "import-serialise", file, answers })) as ReturnType<typeof checkedChunks>;

const storedErrors = (chunks: ReturnType<typeof checkedChunks>["chunks"]) =>
  chunks.filter(([kind]) => kind === "errors").flatMap(([, , json]) => JSON.parse(json) as [number, string, string][]);

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
