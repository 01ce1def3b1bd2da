// What the CPU pool's threads run (decision 331): each task takes plain data (the file's
// bytes, the rows) and returns plain data; nothing here touches the database or a request.
import zlib from "node:zlib";
import { Piscina } from "piscina";
import { analyseUpload, analyseWithMapping } from "~/services/import/mapping/analyse.server";
import { csvLine } from "~/services/import/csv-write";
import { checkedChunks, packFile, type AnalysedFile, type EncodedChunk } from "~/services/import/stored-chunks";
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

/** A packed file answered with its bytes moved (tens of megabytes for a large file). */
const packedAnswer = (file: AnalysedFile) => {
  const packed = packFile(file);
  return moving(packed, movableBuffers(packed.packed));
};

export default async function run(task: CpuTask): Promise<unknown> {
  switch (task.kind) {
    case "import-analyse": {
      const analysed = await analyseUpload(task.type, bufferOf(task.data), async () => task.known, task.context);
      // An analysed file goes back packed: the request thread never receives its rows as objects.
      return analysed.ok && !("needsMapping" in analysed) ? packedAnswer(analysed) : analysed;
    }
    case "import-map": {
      const analysed = await analyseWithMapping(task.type, bufferOf(task.data), task.fields, task.preset, task.context);
      return analysed.ok ? packedAnswer(analysed) : analysed;
    }
    case "import-serialise": {
      // The stored chunks go back as UTF-8 bytes, moved: the request thread binds them as they are.
      const { summary, chunks } = checkedChunks(task.file, task.answers);
      const encoder = new TextEncoder();
      const encoded: EncodedChunk[] = chunks.map(([kind, seq, json]) => [kind, seq, encoder.encode(json)]);
      return moving({ summary, chunks: encoded }, movableBuffers(...encoded.map((c) => c[2])));
    }
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
