import assert from "node:assert/strict";
import { test } from "node:test";
import { HtmlValidate, type ConfigData } from "html-validate";
import { one } from "../../db/index";
import { PAGES, seed } from "../helpers/a11y-pages";
import { Client, clientFor } from "../helpers/client";

// Every page the browser tests visit (the accessibility test's page list) is valid HTML as
// served: html-validate, whose rules follow the Nu HTML Checker, finds no error
// (docs/decisions/392 says why each rule left out is not an error to the Nu checker).

export const HTML_VALIDATE_CONFIG: ConfigData = {
  extends: ["html-validate:standard"],
  rules: {},
};

const validator = new HtmlValidate(HTML_VALIDATE_CONFIG);

/**
 * The Nu checker also reads every URL attribute as a URL, which html-validate does not: a
 * space or other whitespace in an `href` or `src` ("tel:555 0100") is an error there.
 */
function badUrls(html: string): string[] {
  return [...html.matchAll(/\s(href|src|action)="([^"]*)"/g)]
    .filter(([, , url]) => /\s/.test(url.replace(/&#x?[0-9a-f]+;/gi, "")) || /^tel:.*[^0-9+*#(),;.\-a-z=]/i.test(url))
    .map(([, attr, url]) => `bad URL in ${attr}: "${url}"`);
}

test(
  "every page of the accessibility test's list is valid HTML as served (html-validate, Nu-checker rules)",
  { timeout: 600_000 },
  async () => {
    const s = await seed("html");
    // A phone written with spaces, as people type it: its tel: link must not carry them.
    await one(`UPDATE customers SET phone = '+1 555 010 0142' WHERE tenant_id = $1 AND id = $2 RETURNING id`, [
      s.t.id,
      s.customer.id,
    ]);
    const clients = {
      owner: await clientFor(s.t.users.owner),
      technician: await clientFor(s.t.users.technician),
      visitor: new Client(),
    };
    const problems: string[] = [];
    const checked = new Set<string>();
    for (const c of PAGES) {
      const path = c.path(s);
      const key = `${c.who} ${path}`;
      if (checked.has(key)) continue;
      checked.add(key);
      const res = await clients[c.who].get(path);
      assert.equal(res.status, c.status ?? 200, `${c.name}: status`);
      const html = await res.text();
      assert.match(res.headers.get("content-type") ?? "", /text\/html/, `${c.name}: an HTML page`);
      for (const bad of badUrls(html)) problems.push(`${c.name} (${path}): ${bad}`);
      // Every page says what it is in one heading of the first rank (the portal had none).
      const h1s = html.match(/<h1[\s>]/g)?.length ?? 0;
      if (h1s !== 1) problems.push(`${c.name} (${path}): ${h1s} <h1> elements, not one`);
      const report = await validator.validateString(html, `${c.name}.html`);
      for (const r of report.results)
        for (const m of r.messages)
          if (m.severity === 2)
            problems.push(`${c.name} (${path}) ${m.line}:${m.column} ${m.ruleId}: ${m.message} [${m.selector ?? ""}]`);
    }
    assert.ok(checked.size >= 60, `pages checked: ${checked.size}`);
    assert.deepEqual(problems, [], "HTML errors");
  },
);

test("the validator reports the errors this test is there to catch", async () => {
  const page = (body: string) =>
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body><main><h1>t</h1>${body}</main></body></html>`;
  const errors = async (body: string) =>
    (await validator.validateString(page(body))).results.flatMap((r) => r.messages.map((m) => m.ruleId));
  assert.deepEqual(await errors(`<p>ok</p>`), []);
  assert.ok((await errors(`<input name="x" autocomplete="nope">`)).includes("valid-autocomplete"));
  assert.deepEqual(badUrls(page(`<a href="tel:555 0100">call</a>`)), ['bad URL in href: "tel:555 0100"']);
  assert.deepEqual(badUrls(page(`<a href="tel:+15550100">call</a>`)), []);
  assert.ok((await errors(`<input name="a" autocomplete="street-address">`)).includes("valid-autocomplete"));
});
