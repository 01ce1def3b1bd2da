// The streaming multipart reader of the import upload (app/http/multipart.server.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { multipartBoundary, MultipartError, parseMultipart } from "../../app/http/multipart.server";

async function* chunks(bytes: Buffer, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** A body as a browser encodes it (fetch's own FormData encoder). */
async function encode(form: FormData): Promise<{ body: Buffer; boundary: string }> {
  const req = new Request("http://x/", { method: "POST", body: form });
  return { body: Buffer.from(await req.arrayBuffer()), boundary: multipartBoundary(req.headers.get("content-type"))! };
}

async function readAll(body: Buffer, boundary: string, size: number) {
  const out: { name: string; filename?: string; text: string }[] = [];
  for await (const part of parseMultipart(chunks(body, size), boundary)) {
    const pieces: Buffer[] = [];
    for await (const piece of part.data) pieces.push(Buffer.from(piece));
    out.push({ name: part.name, filename: part.filename, text: Buffer.concat(pieces).toString("utf8") });
  }
  return out;
}

describe("multipart reader", () => {
  it("reads fields and a file, whatever the chunk size (boundaries split across chunks)", async () => {
    const form = new FormData();
    form.set("_csrf", "token-123");
    form.set("type", "customers");
    const csv = "name,notes\r\nZoë,\"two\r\nlines\"\r\n--not a boundary\r\n\r\n";
    form.set("file", new Blob([csv]), "C:\\Users\\me\\my \"list\".csv");
    form.set("csv", "");
    const { body, boundary } = await encode(form);
    for (const size of [1, 2, 7, 64, 1 << 20]) {
      const parts = await readAll(body, boundary, size);
      assert.deepEqual(
        parts.map((p) => [p.name, p.filename, p.text]),
        [
          ["_csrf", undefined, "token-123"],
          ["type", undefined, "customers"],
          ["file", 'my "list".csv', csv],
          ["csv", undefined, ""],
        ],
        `chunk size ${size}`,
      );
    }
  });

  it("skips what a reader leaves of a part", async () => {
    const form = new FormData();
    form.set("file", new Blob(["x".repeat(200_000)]), "big.csv");
    form.set("after", "still here");
    const { body, boundary } = await encode(form);
    const seen: string[] = [];
    for await (const part of parseMultipart(chunks(body, 1000), boundary)) {
      if (part.name === "file") {
        for await (const _ of part.data) break; // read one piece only
        continue;
      }
      let text = "";
      for await (const piece of part.data) text += Buffer.from(piece).toString();
      seen.push(`${part.name}=${text}`);
    }
    assert.deepEqual(seen, ["after=still here"]);
  });

  it("refuses a body that ends inside a part", async () => {
    const form = new FormData();
    form.set("file", new Blob(["abc"]), "a.csv");
    const { body, boundary } = await encode(form);
    const cut = body.subarray(0, body.length - boundary.length - 10);
    await assert.rejects(readAll(cut, boundary, 16), MultipartError);
  });

  it("finds the boundary in the content type", () => {
    assert.equal(multipartBoundary("multipart/form-data; boundary=----abc"), "----abc");
    assert.equal(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"'), "a b");
    assert.equal(multipartBoundary("application/x-www-form-urlencoded"), null);
    assert.equal(multipartBoundary("multipart/form-data"), null);
  });
});
