import assert from "node:assert/strict";
import { test } from "node:test";
import { prefersHtml } from "../../app/http/negotiate.server";

const req = (accept?: string) => new Request("http://x.test/", { headers: accept === undefined ? {} : { accept } });

test("a browser navigation or form post prefers HTML", () => {
  for (const accept of [
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "text/html",
    "text/*, application/json;q=0.5",
    "TEXT/HTML; q=1, application/json; q=0.9",
  ]) {
    assert.equal(prefersHtml(req(accept)), true, accept);
  }
});

test("fetch, curl, load tools and JSON clients do not", () => {
  for (const accept of [
    undefined,
    "",
    "*/*",
    "application/json",
    "application/json, text/html",
    "text/html;q=0.5, application/json",
    "application/*",
    "text/html;q=0, */*",
    "text/html;q=nonsense, */*;q=0.1",
  ]) {
    assert.equal(prefersHtml(req(accept)), false, String(accept));
  }
});
