import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { one, rows } from "../../db/index";
import { generateGuidance, type AssistantData } from "../../app/services/assistant/engine";
import { Client, clientFor, envelope } from "../helpers/client";
import { createCustomer, createInvoice, createJob, createQuote, createTenantWithUsers } from "../helpers/fixtures";

const GENERATE = "/ai-assistant/generate";
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

const WATER_HEATER = {
  mode: "quote",
  job_title: "Replace 50 gallon gas water heater",
  details: "In the garage, about 12 years old.",
};
const PANEL = { mode: "quote", job_title: "Panel upgrade", details: "100 amp fuse box to 200 amp" };

function allText(data: AssistantData): string {
  const g = data.guidance;
  return [g.title, g.summary, ...g.sections.flatMap((s) => [s.heading, ...s.items])].join("\n");
}

/** The page's HTML with entities decoded enough to search for guidance text. */
async function pageText(res: Response): Promise<string> {
  return (await res.text())
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");
}

async function officeClient() {
  const t = await createTenantWithUsers();
  return { t, c: await clientFor(t.users.office) };
}

describe("POST /ai-assistant/generate for a JavaScript client", () => {
  for (const mode of ["quote", "schedule", "general"] as const) {
    test(`${mode}: the envelope holds exactly {mode, engine, engineVersion, guidance} with at least two sections`, async () => {
      const { c } = await officeClient();
      const input = { mode, job_title: "Water heater replacement", details: "Attic install, two-story house" };
      const res = await c.post(GENERATE, input);
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      const body = await envelope(res);
      assert.equal(body.success, true);
      assert.equal(body.meta.requestId, res.headers.get("x-request-id"));
      const data = body.data as AssistantData;
      assert.deepEqual(Object.keys(data), ["mode", "engine", "engineVersion", "guidance"]);
      assert.equal(data.mode, mode);
      assert.equal(data.engine, "local-rules");
      assert.match(data.engineVersion, /^\d+\.[0-9a-f]{14}$/);
      assert.deepEqual(Object.keys(data.guidance), ["title", "summary", "sections"]);
      assert.ok(data.guidance.title && data.guidance.summary);
      assert.ok(data.guidance.sections.length >= 2, `${data.guidance.sections.length} sections`);
      for (const s of data.guidance.sections) {
        assert.deepEqual(Object.keys(s), ["heading", "items"]);
        assert.ok(s.heading.length > 0);
        assert.ok(s.items.length > 0 && s.items.every((i) => typeof i === "string" && i.trim().length > 0), s.heading);
      }
      // It is the local engine's answer, nothing else.
      assert.deepEqual(data, generateGuidance({ mode, jobTitle: input.job_title, details: input.details }));
    });
  }

  test("the same input twice gives byte-identical data (url-encoded or multipart)", async () => {
    const { c } = await officeClient();
    const headers = { "x-request-id": "assistant-determinism" };
    const input = {
      mode: "schedule",
      job_title: "Panel upgrade to 200 amp",
      details: "Old house, overhead service; also wants an EV charger.",
    };
    const first = await c.post(GENERATE, input, { headers });
    const second = await c.post(GENERATE, input, { headers });
    assert.equal(first.status, 200);
    const [a, b] = [await first.text(), await second.text()];
    assert.equal(a, b, "whole response bodies are equal byte for byte");
    const form = new FormData();
    for (const [k, v] of Object.entries(input)) form.set(k, v);
    const multipart = await c.post(GENERATE, form, { headers });
    assert.equal(multipart.status, 200);
    assert.equal(JSON.stringify((await envelope(multipart)).data), JSON.stringify(JSON.parse(a).data));
  });

  test("a water heater quote and a panel upgrade quote differ and each names its trade's items", async () => {
    const { c } = await officeClient();
    const wh = (await envelope(await c.post(GENERATE, WATER_HEATER))).data as AssistantData;
    const panel = (await envelope(await c.post(GENERATE, PANEL))).data as AssistantData;
    const [whText, panelText] = [allText(wh), allText(panel)];
    assert.notEqual(wh.guidance.title, panel.guidance.title);
    assert.match(wh.guidance.title, /water heater/i);
    assert.match(whText, /expansion tank/i);
    assert.match(whText, /T&P/);
    assert.match(whText, /Water heating/);
    assert.match(whText, /Labour, plumbing/);
    assert.doesNotMatch(whText, /breaker|meter socket/i);
    assert.match(panel.guidance.title, /panel/i);
    assert.match(panelText, /breaker/i);
    assert.match(panelText, /utility disconnect/i);
    assert.match(panelText, /Electrical/);
    assert.doesNotMatch(panelText, /expansion tank|T&P/i);
    const materials = (d: AssistantData) => d.guidance.sections.find((s) => s.heading.startsWith("Materials"))!.items;
    assert.equal(materials(wh).filter((i) => materials(panel).includes(i)).length, 0, "no material line in common");
  });

  test("unknown mode, missing mode, title over 200 and details over 5,000 characters: 422 naming the field", async () => {
    const { c } = await officeClient();
    const cases = [
      { body: { mode: "poem", job_title: "Drain" }, field: "mode" },
      { body: { job_title: "Drain" }, field: "mode" },
      { body: { mode: "quote", job_title: "t".repeat(201) }, field: "job_title" },
      { body: { mode: "quote", details: "d".repeat(5001) }, field: "details" },
    ];
    for (const { body, field } of cases) {
      const res = await c.post(GENERATE, body);
      assert.equal(res.status, 422, field);
      const e = await envelope(res);
      assert.equal(e.success, false);
      assert.equal(e.error?.code, "VALIDATION_FAILED");
      assert.deepEqual(Object.keys(e.error!.fields), [field]);
      assert.ok(e.error!.fields[field][0].length > 0);
    }
    // The limits themselves are accepted.
    const atLimit = await c.post(GENERATE, { mode: "general", job_title: "t".repeat(200), details: "d".repeat(5000) });
    assert.equal(atLimit.status, 200);
  });

  test("signed out: 401 UNAUTHENTICATED envelope, whatever the Accept header", async () => {
    const c = new Client();
    for (const accept of ["application/json", BROWSER_ACCEPT]) {
      const res = await c.post(GENERATE, { mode: "quote", job_title: "Drain" }, { headers: { accept } });
      assert.equal(res.status, 401, accept);
      const e = await envelope(res);
      assert.equal(e.error?.code, "UNAUTHENTICATED");
      assert.deepEqual(e.error?.fields, {});
    }
  });

  test("every role may use it: the page and the route answer owner, admin, office and technician", async () => {
    const t = await createTenantWithUsers();
    for (const role of ["owner", "admin", "office", "technician"] as const) {
      const c = await clientFor(t.users[role]);
      const page = await c.get("/ai-assistant");
      assert.equal(page.status, 200, role);
      const res = await c.post(GENERATE, { mode: "general", job_title: "Furnace not igniting" });
      assert.equal(res.status, 200, role);
      assert.equal((await envelope(res)).data.mode, "general");
    }
  });

  test("no _csrf, a wrong one, or a cross-site request: 403 CSRF_INVALID envelope", async () => {
    const { c } = await officeClient();
    const input = { mode: "quote", job_title: "Drain" };
    const attempts = [
      await c.post(GENERATE, input, { csrf: false }),
      await c.post(GENERATE, { ...input, _csrf: "forged-token" }),
      await c.post(GENERATE, input, { headers: { origin: "https://evil.example" } }),
      await c.post(GENERATE, input, { headers: { "sec-fetch-site": "cross-site" } }),
      // A token of another session does not verify either.
      await c.post(GENERATE, { ...input, _csrf: await (await officeClient()).c.csrf() }),
    ];
    for (const [i, res] of attempts.entries()) {
      assert.equal(res.status, 403, `attempt ${i}`);
      const e = await envelope(res);
      assert.equal(e.error?.code, "CSRF_INVALID", `attempt ${i}`);
    }
  });

  test("GET is 405 with Allow: POST, and a body over 1 MiB is 413, both as the envelope", async () => {
    const { c } = await officeClient();
    const get = await c.get(GENERATE);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("allow"), "POST");
    assert.equal((await envelope(get)).error?.code, "METHOD_NOT_ALLOWED");
    const big = await c.post(GENERATE, { mode: "quote", details: "x".repeat(1024 * 1024 + 10) });
    assert.equal(big.status, 413);
    assert.equal((await envelope(big)).error?.code, "PAYLOAD_TOO_LARGE");
  });
});

describe("the page and a form post without JavaScript", () => {
  test("signed out, the page sends you to sign in and back", async () => {
    const res = await new Client().get("/ai-assistant");
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), "/login?redirectTo=%2Fai-assistant");
  });

  test("the page renders the form: mode choices, job title, details and _csrf", async () => {
    const { c } = await officeClient();
    const html = await (await c.get("/ai-assistant")).text();
    for (const mode of ["quote", "schedule", "general"])
      assert.match(html, new RegExp(`<input type="radio" name="mode"( checked="")? value="${mode}"/>`));
    assert.match(html, /name="job_title"[^>]*maxLength="200"|maxLength="200"[^>]*name="job_title"/i);
    assert.match(html, /<textarea[^>]*name="details"/);
    assert.match(html, /name="_csrf" value="[^"]+"/);
    assert.match(html, /action="\/ai-assistant\/generate"/);
  });

  test("a browser post gets a 303 to /ai-assistant, which shows the same guidance once, kept out of the URL", async () => {
    const { c } = await officeClient();
    const res = await c.post(GENERATE, WATER_HEATER, { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/ai-assistant");
    const expected = generateGuidance({
      mode: "quote",
      jobTitle: WATER_HEATER.job_title,
      details: WATER_HEATER.details,
    });

    const page = await c.get("/ai-assistant");
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("cache-control"), "no-store");
    const html = await pageText(page);
    assert.ok(
      html.includes(`<h2 id="guidance-title" tabindex="-1">${expected.guidance.title}</h2>`),
      expected.guidance.title,
    );
    assert.ok(html.includes(`<p class="guidance-summary">${expected.guidance.summary}</p>`));
    for (const s of expected.guidance.sections) {
      assert.ok(html.includes(`<h3>${s.heading}</h3>`), s.heading);
      for (const item of s.items) assert.ok(html.includes(`<li>${item}</li>`), item);
    }
    assert.ok(html.includes(expected.engineVersion));
    // The form keeps what was typed.
    assert.match(html, /name="mode" checked="" value="quote"/);
    assert.ok(html.includes(`value="${WATER_HEATER.job_title}"`));
    assert.ok(html.includes(`>${WATER_HEATER.details}</textarea>`));

    // Shown once: the flash is spent.
    const again = await pageText(await c.get("/ai-assistant"));
    assert.ok(!again.includes(expected.guidance.title));
    assert.match(again, /Guidance appears here/);
  });

  test("a browser post with a bad field comes back with the error beside the field and the typed text", async () => {
    const { c } = await officeClient();
    const longTitle = "Leaking kitchen faucet ".repeat(10); // 230 characters
    const res = await c.post(
      GENERATE,
      { mode: "schedule", job_title: longTitle, details: "Under the sink" },
      { headers: { accept: BROWSER_ACCEPT } },
    );
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/ai-assistant");
    const html = await pageText(await c.get("/ai-assistant"));
    assert.match(
      html,
      /<div role="alert"><ul id="field-job_title-error" class="field-errors"><li>Job title must be at most 200 characters\.<\/li><\/ul>/,
    );
    assert.match(html, /aria-invalid="true"/);
    assert.ok(html.includes(`value="${longTitle}"`));
    assert.match(html, /name="mode" checked="" value="schedule"/);
    assert.ok(html.includes(">Under the sink</textarea>"));
    assert.doesNotMatch(html, /id="guidance-title"/);
  });
});

describe("no operational record changes", () => {
  test("after 100 generations every tenant table holds exactly the same rows", async () => {
    const t = await createTenantWithUsers();
    const customer = await createCustomer(t.id);
    await createJob(t.id, { customerId: customer.id });
    await createQuote(t.id, { customerId: customer.id });
    await createInvoice(t.id, { customerId: customer.id });

    // Every table with a tenant_id column, today's and any added later.
    const tables = (
      await rows<{ table_name: string }>(
        `SELECT c.table_name FROM information_schema.columns c
           JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
          WHERE c.table_schema = current_schema() AND c.column_name = 'tenant_id' AND t.table_type = 'BASE TABLE'
          ORDER BY 1`,
      )
    ).map((r) => r.table_name);
    for (const name of [
      "customers",
      "jobs",
      "quotes",
      "invoices",
      "payments",
      "booking_requests",
      "job_notes",
      "time_entries",
      "users",
    ]) {
      assert.ok(tables.includes(name), name);
    }
    // Count and a digest of every row; the session's flash and expiry are the only row that may move.
    const snapshot = async () => {
      const out: Record<string, string> = {};
      for (const table of tables) {
        const digest =
          table === "sessions"
            ? "count(*)::text"
            : "count(*) || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '')";
        const r = await one<{ v: string }>(`SELECT ${digest} AS v FROM "${table}" x WHERE tenant_id = $1`, [t.id]);
        out[table] = r!.v;
      }
      const tenant = await one<{ v: string }>(`SELECT x::text AS v FROM tenants x WHERE id = $1`, [t.id]);
      out.tenants = tenant!.v;
      return out;
    };
    const c = await clientFor(t.users.technician);
    const csrf = await c.csrf();
    const before = await snapshot();
    assert.ok(Number(before.customers.split(":")[0]) > 0 && Number(before.quotes.split(":")[0]) > 0);
    const modes = ["quote", "schedule", "general"];
    const titles = ["Water heater replacement", "Panel upgrade", "AC tune-up", "Clogged drain", "Mount a TV", ""];
    for (let batch = 0; batch < 10; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) => {
          const n = batch * 10 + i;
          const html = n % 4 === 0; // a quarter as browser form posts (these write the session flash)
          return c.post(
            GENERATE,
            {
              _csrf: csrf,
              mode: modes[n % 3],
              job_title: titles[n % titles.length],
              details: `Job ${n} for ${customer.name}`,
            },
            { headers: html ? { accept: BROWSER_ACCEPT } : {} },
          );
        }),
      );
      for (const res of responses) assert.ok(res.status === 200 || res.status === 303, String(res.status));
    }
    assert.deepEqual(await snapshot(), before);
  });
});
