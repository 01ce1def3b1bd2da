// The import upload reader (app/http/import-upload.server.ts) over busboy: fields and the file
// in any chunking, a file error that stops the read, the type after the file, the body limit.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readImportUpload } from "../../app/http/import-upload.server";
import { LIMITS } from "../../app/http/body.server";
import { AppError } from "../../app/utils/app-error";

/** A body as a browser encodes it (fetch's own FormData encoder). */
async function encode(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const req = new Request("http://x/", { method: "POST", body: form });
  return { body: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get("content-type")! };
}

/** A streamed request (no Content-Length) whose body arrives in pieces of `size` bytes. */
function request(body: Buffer, contentType: string, size: number): Request {
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= body.length) return controller.close();
      controller.enqueue(body.subarray(at, at + size));
      at += size;
    },
  });
  return new Request("http://x/import-data/preview", {
    method: "POST",
    headers: { "content-type": contentType },
    body: stream,
    duplex: "half",
  } as RequestInit);
}

type Result = { ok: boolean; text: string };
async function collect(input: AsyncIterable<Uint8Array> | Buffer | string): Promise<string> {
  if (typeof input === "string") return input;
  if (Buffer.isBuffer(input)) return input.toString("utf8");
  const pieces: Buffer[] = [];
  for await (const piece of input) pieces.push(Buffer.from(piece));
  return Buffer.concat(pieces).toString("utf8");
}

const read = (
  req: Request,
  analyse = async (_t: string, input: AsyncIterable<Uint8Array> | Buffer | string): Promise<Result> => ({
    ok: true,
    text: await collect(input),
  }),
) =>
  readImportUpload<Result>(req, {
    typeFromUrl: null,
    analyse,
    isFileError: (r) => !r.ok,
    isType: (t) => t === "customers",
  });

describe("import upload reader", () => {
  it("reads fields and the file, whatever the chunk size (boundaries split across chunks)", async () => {
    const form = new FormData();
    form.set("_csrf", "token-123");
    form.set("type", "customers");
    const csv = 'name,notes\r\nZoë,"two\r\nlines"\r\n--not a boundary\r\n\r\n';
    form.set("file", new Blob([csv]), 'C:\\Users\\me\\my "list" é.csv');
    form.set("csv", "");
    const { body, contentType } = await encode(form);
    for (const size of [1, 2, 7, 64, 1 << 20]) {
      const upload = await read(request(body, contentType, size));
      assert.deepEqual(upload.fields, { _csrf: "token-123", type: "customers" }, `chunk size ${size}`);
      assert.equal(upload.type, "customers");
      assert.equal(upload.file?.name, 'my "list" é.csv', `chunk size ${size}`);
      assert.equal(upload.file?.bytes, Buffer.byteLength(csv));
      assert.equal(upload.file?.result.text, csv, `chunk size ${size}`);
    }
  });

  it("takes pasted CSV text, and a type sent after the file", async () => {
    const pasted = new FormData();
    pasted.set("type", "customers");
    pasted.set("file", new Blob([]), "");
    pasted.set("csv", "name\r\nAda\r\n");
    const a = await encode(pasted);
    const upload = await read(request(a.body, a.contentType, 5));
    assert.equal(upload.file?.name, null);
    assert.equal(upload.file?.result.text, "name\r\nAda\r\n");

    const late = new FormData();
    late.set("file", new Blob(["name\r\nBo\r\n"]), "late.csv");
    late.set("type", "customers");
    const b = await encode(late);
    const after = await read(request(b.body, b.contentType, 3));
    assert.equal(after.file?.name, "late.csv");
    assert.equal(after.file?.result.text, "name\r\nBo\r\n");
  });

  it("stops at a file error and leaves the rest of the body unread", async () => {
    const form = new FormData();
    form.set("type", "customers");
    form.set("file", new Blob(["x".repeat(300_000)]), "big.csv");
    form.set("_csrf", "after the file");
    const { body, contentType } = await encode(form);
    const upload = await read(request(body, contentType, 1000), async (_t, input) => {
      for await (const _ of input as AsyncIterable<Uint8Array>) break; // one piece, then a file error
      return { ok: false, text: "" };
    });
    assert.equal(upload.file?.result.ok, false);
    assert.equal(upload.fields._csrf, undefined);
  });

  it("refuses a file and pasted text together, a body cut short, and a body over the limit", async () => {
    const both = new FormData();
    both.set("type", "customers");
    both.set("file", new Blob(["name\r\nA\r\n"]), "a.csv");
    both.set("csv", "name\r\nB\r\n");
    const a = await encode(both);
    await assert.rejects(
      read(request(a.body, a.contentType, 64)),
      (e: AppError) => e.code === "BAD_REQUEST" && /not both/.test(e.message),
    );

    const cut = a.body.subarray(0, a.body.length - 20);
    await assert.rejects(read(request(cut, a.contentType, 16)), (e: AppError) => e.code === "BAD_REQUEST");

    const big = new FormData();
    big.set("type", "customers");
    big.set("file", new Blob([Buffer.alloc(LIMITS.importMultipart + 1, 0x61)]), "big.csv");
    const c = await encode(big);
    await assert.rejects(
      read(request(c.body, c.contentType, 64 * 1024)),
      (e: AppError) => e.code === "PAYLOAD_TOO_LARGE",
    );
  });

  it("refuses a field over its limit and a body that is not multipart", async () => {
    const form = new FormData();
    form.set("_csrf", "x".repeat(5000));
    const a = await encode(form);
    await assert.rejects(
      read(request(a.body, a.contentType, 512)),
      (e: AppError) => e.code === "BAD_REQUEST" && /too long/.test(e.message),
    );
    await assert.rejects(
      read(request(Buffer.from("{}"), "application/json", 2)),
      (e: AppError) => e.code === "BAD_REQUEST",
    );
    await assert.rejects(
      read(request(Buffer.from("--x--"), "multipart/form-data", 2)),
      (e: AppError) => e.code === "BAD_REQUEST",
    );
  });
});
