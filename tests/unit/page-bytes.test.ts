import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import { createElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { withoutNulBytes } from "../../app/http/page-bytes.server";

// React 18.3's node renderer leaves zero bytes in a page when a multi-byte character falls on
// the end of its 2,048-byte write view (decision 225); entry.server.tsx drops them.

/** What renderToPipeableStream writes for `element`, as entry.server.tsx collects it. */
function rendered(element: React.ReactElement): Promise<ReturnType<typeof Buffer.concat>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
      final(done) {
        resolve(Buffer.concat(chunks));
        done();
      },
    });
    const { pipe } = renderToPipeableStream(element, { onAllReady: () => pipe(sink), onShellError: reject });
  });
}

test("a dash on the renderer's view boundary: React writes NUL bytes, and withoutNulBytes gives back exactly the page", async () => {
  let sawNul = false;
  // Short text parts (as pages are made of) fill the view; the padding moves the three-byte
  // "–" across its end one byte at a time.
  for (let pad = 0; pad < 40; pad++) {
    const element = createElement(
      "div",
      null,
      ...Array.from({ length: 192 }, (_, i) => createElement("span", { key: i }, "abcdefgh")),
      createElement("b", { key: "pad" }, "x".repeat(pad)),
      createElement("p", { key: "dash" }, "1:30–3:30 PM, é ✓"),
    );
    const raw = await rendered(element);
    if (raw.includes(0)) sawNul = true;
    assert.equal(withoutNulBytes(raw).toString("utf8"), renderToString(element), `pad ${pad}`);
  }
  // If React stops doing this, the workaround in entry.server.tsx can go.
  assert.ok(sawNul, "React 18.3's renderer wrote a NUL byte for at least one position");
});

test("a page without NUL bytes is passed through as is", () => {
  const body = Buffer.concat([Buffer.from("<p>1:30–3:30 PM</p>")]);
  assert.equal(withoutNulBytes(body), body);
});
