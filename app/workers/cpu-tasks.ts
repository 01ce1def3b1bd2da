// What the CPU pool's threads run (decision 331): each task takes plain data (the file's
// bytes, the rows) and returns plain data; nothing here touches the database or a request.
import zlib from "node:zlib";
import { Piscina } from "piscina";
import { analyseUpload, analyseWithMapping } from "~/services/import/mapping/analyse.server";
import { csvLine } from "~/services/import/csv-write";
import { answersThatMarkNothing, databaseQuestions, type DatabaseAnswers } from "~/services/import/database-checks";
import {
  checkFile,
  packFile,
  unpackFile,
  type AnalysedFile,
  type CheckedFile,
  type PackedFile,
} from "~/services/import/stored-chunks";
import { renderPdf } from "~/services/documents/pdf-layout.server";
import { reportCsv } from "~/services/reports/csv";
import { movableBuffers, type CpuTask, type ExportSlice, type ExportSliceTask } from "~/services/work/tasks";

/** CSV lines of an export slice, deflated and flushed to a byte boundary (the stream is not ended). */
function exportSlice(task: ExportSliceTask): ExportSlice {
  let text = task.text ?? "";
  if (task.header) text += csvLine(task.header);
  const width = task.width ?? 0;
  for (const row of task.rows ?? []) {
    const cells = new Array(width);
    for (let i = 0; i < width; i++) cells[i] = row[`c${i}`] ?? null;
    text += csvLine(cells);
  }
  for (const cells of task.lines ?? []) text += csvLine(cells);
  const raw = Buffer.from(text, "utf8");
  const data = raw.length ? zlib.deflateRawSync(raw, { finishFlush: zlib.constants.Z_SYNC_FLUSH }) : Buffer.alloc(0);
  return { data, crc: zlib.crc32(raw, task.crc), size: raw.length };
}

/** A file's bytes as a Buffer over the same memory (they cross into the thread as a plain Uint8Array). */
const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

type Movable = Parameters<typeof Piscina.move>[0];

/** An answer whose large buffers move to the request thread rather than being copied there. */
function moving<T extends object>(value: T, buffers: ArrayBuffer[]): unknown {
  const answer = { [Piscina.transferableSymbol]: buffers, [Piscina.valueSymbol]: value };
  return buffers.length ? Piscina.move(answer as unknown as Movable) : value;
}

/** A file checked under these answers: the stored chunks' JSON as UTF-8 bytes (the request thread binds them as they are). */
function checked(file: AnalysedFile, answers: DatabaseAnswers): CheckedFile {
  const { summary, chunks } = checkFile(file, answers);
  const encoder = new TextEncoder();
  return { summary, chunks: chunks.map(([kind, seq, json]) => [kind, seq, encoder.encode(json)]) };
}

/** The memory of a checked file's chunks that moves with the answer. */
const chunkBuffers = (file: CheckedFile) => movableBuffers(...file.chunks.map((c) => c[2]));

/** The answer of a file checked under the database's answers, its chunks' memory moved. */
function checkedAnswer(file: AnalysedFile, answers: DatabaseAnswers): unknown {
  const done = checked(file, answers);
  return moving(done, chunkBuffers(done));
}

/**
 * An analysed file's answer. With the database's answers, the file checked. Otherwise the
 * questions it asks, and either the file checked as if the answers mark nothing (customers,
 * team: the request thread keeps that when they do mark nothing, and sends the task again with
 * them when they mark rows), or its rows packed (tens of megabytes for a large file).
 */
function analysedAnswer(file: AnalysedFile, answers: DatabaseAnswers | undefined): unknown {
  if (answers) return checkedAnswer(file, answers);
  const clean = answersThatMarkNothing(file.type);
  if (clean) {
    const questions = databaseQuestions(file);
    const unmarked = checked(file, clean);
    return moving({ ok: true, type: file.type, questions, unmarked } satisfies PackedFile, chunkBuffers(unmarked));
  }
  const packed = packFile(file);
  return moving(packed, movableBuffers(packed.packed));
}

export default async function run(task: CpuTask): Promise<unknown> {
  switch (task.kind) {
    case "import-analyse": {
      const analysed = await analyseUpload(task.type, bufferOf(task.data), async () => task.known, task.context);
      // The request thread never receives an analysed file's rows as objects.
      return analysed.ok && !("needsMapping" in analysed) ? analysedAnswer(analysed, task.answers) : analysed;
    }
    case "import-map": {
      const analysed = await analyseWithMapping(task.type, bufferOf(task.data), task.fields, task.preset, task.context);
      return analysed.ok ? analysedAnswer(analysed, task.answers) : analysed;
    }
    case "import-serialise":
      return checkedAnswer(unpackFile(task.packed), task.answers);
    case "export-slice":
      return exportSlice(task);
    case "pdf": {
      // A Buffer crosses into the thread as a plain Uint8Array.
      const signature = task.doc.signature;
      const image = signature?.image ? Buffer.from(signature.image) : null;
      const logo = task.doc.logo ? Buffer.from(task.doc.logo) : null;
      const pdf = await renderPdf({ ...task.doc, logo, signature: signature ? { ...signature, image } : signature });
      return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    }
    case "report-csv":
      return reportCsv(task.name, task.reports);
    default:
      throw new Error(`unknown CPU task ${(task as { kind: string }).kind}`);
  }
}
