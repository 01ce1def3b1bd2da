import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { one, rows } from "../../db/index";
import { Client, clientFor } from "../helpers/client";
import { createCustomer, createInvoice, createJob, createTenantWithUsers, createUser } from "../helpers/fixtures";
import { importFile, pageText, parseSimpleCsv } from "../helpers/import";

// CONTRACT section 15, issue 22: /reports and /reports/<name>.csv, per tenant, in the
// tenant's time zone, every month of the period present (zero, not a gap).

/** The tenant's calendar month `back` months before this one, as YYYY-MM, and a date in it. */
async function monthAgo(tenantId: string, back: number, day = 1) {
  const r = await one<{ month: string; date: string }>(
    `SELECT to_char(m, 'YYYY-MM') AS month, to_char(m + ($3::int - 1) * interval '1 day', 'YYYY-MM-DD') AS date
       FROM (SELECT date_trunc('month', (now() AT TIME ZONE time_zone)::date) - $2::int * interval '1 month' AS m FROM tenants WHERE id = $1) x`,
    [tenantId, back, day],
  );
  return r!;
}

/** An instant: a wall-clock time in the tenant's zone (`YYYY-MM-DD HH:MM`). */
async function localInstant(tenantId: string, wall: string): Promise<Date> {
  const r = await one<{ at: Date }>(`SELECT ($2::timestamp AT TIME ZONE time_zone) AS at FROM tenants WHERE id = $1`, [
    tenantId,
    wall,
  ]);
  return new Date(r!.at);
}

async function pay(tenantId: string, invoiceId: string, cents: number, at: Date, currency = "USD") {
  await rows(
    `INSERT INTO payments (tenant_id, invoice_id, amount_cents, currency, method, reference, recorded_at)
     VALUES ($1, $2, $3, $4, 'check', 'test', $5)`,
    [tenantId, invoiceId, cents, currency, at],
  );
}

async function csv(c: Client, name: string, query = "") {
  const res = await c.get(`/reports/${name}.csv${query}`);
  assert.equal(res.status, 200, `${name}.csv`);
  assert.match(res.headers.get("content-type") ?? "", /^text\/csv/);
  assert.match(res.headers.get("content-disposition") ?? "", /^attachment; filename="[\w-]+\.csv"$/);
  return parseSimpleCsv(await res.text());
}

/** The values the chart of one report section draws, per series, from the SVG's data-value attributes. */
function chartValues(html: string, section: string): Record<string, number[]> {
  const start = html.indexOf(`id="report-${section}"`);
  assert.ok(start > 0, `section ${section}`);
  const svg = html.slice(html.indexOf("<svg", start), html.indexOf("</svg>", start));
  const out: Record<string, number[]> = {};
  for (const g of svg.matchAll(/data-series="([^"]+)"([\s\S]*?)<\/g>/g)) {
    out[g[1]] = [...g[2].matchAll(/data-value="(-?\d+)"/g)].map((m) => Number(m[1]));
  }
  return out;
}

describe("reports", () => {
  test("imported invoices and payments of known amounts give exactly those monthly totals, zero months included, in the table, the chart and the CSV", async () => {
    const t = await createTenantWithUsers("Summit Plumbing reports");
    await rows(`UPDATE tenants SET time_zone = 'America/Los_Angeles' WHERE id = $1`, [t.id]);
    const owner = await clientFor(t.users.owner);
    const m5 = await monthAgo(t.id, 5, 3);
    const m2a = await monthAgo(t.id, 2, 10);
    const m2b = await monthAgo(t.id, 2, 20);
    const m1 = await monthAgo(t.id, 1, 15);
    const now = await monthAgo(t.id, 0);

    await importFile(owner, "customers", "name,email\nAnn Customer,ann@reports.test\nBob Builder,bob@reports.test\n");
    await importFile(
      owner,
      "invoices",
      [
        "number,customer_email,status,issue_date,due_date,item_description,item_quantity,item_unit_price,amount_paid",
        `R-1,ann@reports.test,sent,${m2a.date},${m2a.date},Water heater,1,100.00,0`,
        `R-2,ann@reports.test,partial,${m2b.date},${m2b.date},Drain clearing,1,50.25,20.00`,
        `R-3,bob@reports.test,sent,${m5.date},${m5.date},Repipe,1,1234.56,0`,
        `R-4,bob@reports.test,draft,${m2a.date},${m2a.date},Draft never sent,1,999.00,0`,
        `R-5,bob@reports.test,void,${m2a.date},${m2a.date},Voided,1,888.00,0`,
      ].join("\n") + "\n",
    );
    const r1 = await one<{ id: string }>(`SELECT id FROM invoices WHERE tenant_id = $1 AND number = 'R-1'`, [t.id]);
    await pay(t.id, r1!.id, 6_000, await localInstant(t.id, `${m2b.date} 12:00`));
    await pay(t.id, r1!.id, 4_000, await localInstant(t.id, `${m1.date} 09:30`));

    const expected = new Map<string, [string, string]>([
      [m5.month, ["1234.56", "0.00"]],
      [m2a.month, ["150.25", "60.00"]],
      [m1.month, ["0.00", "40.00"]],
      [now.month, ["0.00", "20.00"]], // the import's "paid before" payment, recorded at the import
    ]);

    const table = await csv(owner, "invoiced-collected");
    assert.deepEqual(table[0], ["month", "invoiced_USD", "collected_USD"]);
    assert.equal(table.length, 13, "twelve months, each present");
    assert.equal(table[12][0], now.month, "ends with this month");
    for (const [month, invoiced, collected] of table.slice(1)) {
      assert.deepEqual([invoiced, collected], expected.get(month) ?? ["0.00", "0.00"], month);
    }

    const res = await owner.get("/reports");
    assert.equal(res.status, 200);
    const html = await res.text();
    const text = pageText(html);
    assert.match(text, /Invoiced and collected per month/);
    assert.match(text, /America\/Los_Angeles/);
    const chart = chartValues(html, "invoiced-collected");
    assert.deepEqual(
      chart.Invoiced,
      table.slice(1).map((r) => Math.round(Number(r[1]) * 100)),
      "one bar per month: invoiced",
    );
    assert.deepEqual(
      chart.Collected,
      table.slice(1).map((r) => Math.round(Number(r[2]) * 100)),
      "one bar per month: collected",
    );
    assert.match(text, /Total \$1,384\.81 \$120\.00/, "the table's totals");
  });

  test("a payment at the month's edge counts in the tenant's own month: Pacific/Auckland and America/Los_Angeles", async () => {
    for (const zone of ["Pacific/Auckland", "America/Los_Angeles"]) {
      const t = await createTenantWithUsers(`Edge ${zone}`);
      await rows(`UPDATE tenants SET time_zone = $2 WHERE id = $1`, [t.id, zone]);
      const customer = await createCustomer(t.id);
      const invoice = await createInvoice(t.id, { customerId: customer.id });
      const before = await monthAgo(t.id, 2);
      const edge = await monthAgo(t.id, 1); // the first day of last month
      // 30 minutes after midnight on the 1st, local time: UTC still says the month before in
      // Auckland; 30 minutes before midnight at the end of the month in Los Angeles: UTC already
      // says the next month.
      const early = await localInstant(t.id, `${edge.date} 00:30`);
      const late = await localInstant(
        t.id,
        `${await one<{ d: string }>(`SELECT to_char($1::date - 1, 'YYYY-MM-DD') AS d`, [edge.date]).then((r) => r!.d)} 23:30`,
      );
      await pay(t.id, invoice.id, 1_111, early);
      await pay(t.id, invoice.id, 2_222, late);
      const byMonth = Object.fromEntries(
        (await csv(await clientFor(t.users.owner), "invoiced-collected")).slice(1).map((r) => [r[0], r[2]]),
      );
      assert.equal(byMonth[edge.month], "11.11", `${zone}: 00:30 on the 1st is in that month`);
      assert.equal(byMonth[before.month], "22.22", `${zone}: 23:30 on the last day is in that month`);
    }
  });

  test("quotes sent and approved, jobs completed per week by technician, outstanding by age, top customers (escaped in the CSV)", async () => {
    const t = await createTenantWithUsers("Reports mix");
    await rows(`UPDATE tenants SET time_zone = 'America/Chicago' WHERE id = $1`, [t.id]);
    const owner = await clientFor(t.users.owner);
    const ann = await createCustomer(t.id, { name: "Ann Customer" });
    const evil = await createCustomer(t.id, { name: '=HYPERLINK("http://evil.example")' });
    const m1 = await monthAgo(t.id, 1, 12);

    // Three quotes sent last month, one approved.
    for (const approved of [true, false, false]) {
      await rows(
        `INSERT INTO quotes (tenant_id, customer_id, number, status, currency, sent_at, approved_at)
         VALUES ($1, $2, 'QR-' || substr(gen_random_uuid()::text, 1, 8), $3, 'USD', $4, $5)`,
        [
          t.id,
          ann.id,
          approved ? "approved" : "sent",
          await localInstant(t.id, `${m1.date} 10:00`),
          approved ? await localInstant(t.id, `${m1.date} 15:00`) : null,
        ],
      );
    }
    const quotes = Object.fromEntries((await csv(owner, "quote-conversion")).slice(1).map((r) => [r[0], r.slice(1)]));
    assert.deepEqual(quotes[m1.month], ["3", "1", "33.3"]);
    assert.ok(
      Object.values(quotes)
        .filter((q) => q[0] === "0")
        .every((q) => q[2] === ""),
      "no rate for a month without quotes",
    );

    // Two jobs completed by the technician in one week, one by another member.
    const other = await createUser(t.id, { role: "technician", name: "Zed Tech" });
    const doneAt = await localInstant(t.id, `${m1.date} 16:00`);
    for (const assignee of [t.users.technician.id, t.users.technician.id, other.id]) {
      const job = await createJob(t.id, { customerId: ann.id, assigneeId: assignee });
      await rows(`UPDATE jobs SET status = 'completed', completed_at = $3 WHERE tenant_id = $1 AND id = $2`, [
        t.id,
        job.id,
        doneAt,
      ]);
    }
    const jobs = await csv(owner, "jobs-completed");
    const header = jobs[0];
    assert.deepEqual(
      header.slice(1),
      [t.users.technician.name, "Zed Tech", "total"].sort((a, b) =>
        a === "total" ? 1 : b === "total" ? -1 : a.localeCompare(b),
      ),
    );
    const week = jobs.slice(1).find((r) => r.slice(1, -1).some((v) => v !== "0"));
    assert.ok(week, "a week with completed jobs");
    assert.equal(week[header.indexOf(t.users.technician.name)], "2");
    assert.equal(week[header.indexOf("Zed Tech")], "1");
    assert.equal(week.at(-1), "3");
    assert.equal(new Date(`${week[0]}T00:00:00Z`).getUTCDay(), 1, "weeks start on Monday");
    assert.ok(jobs.length >= 53, "every week of the period is a row");

    // Outstanding by age, against the tenant's today.
    const today = (await one<{ d: string }>(
      `SELECT to_char((now() AT TIME ZONE time_zone)::date, 'YYYY-MM-DD') AS d FROM tenants WHERE id = $1`,
      [t.id],
    ))!.d;
    const shift = (days: number) =>
      new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    const owed = [
      [5, 10_000],
      [0, 2_000],
      [-10, 20_000],
      [-45, 30_000],
      [-75, 40_000],
      [-100, 50_000],
    ] as const;
    for (const [due, cents] of owed) {
      await createInvoice(t.id, {
        customerId: ann.id,
        dueDate: shift(due),
        items: [{ description: "Service", unitPriceCents: cents }],
      });
    }
    await createInvoice(t.id, {
      customerId: ann.id,
      status: "paid",
      dueDate: shift(-200),
      amountPaidCents: 5_000,
      items: [{ description: "Paid", unitPriceCents: 5_000 }],
    });
    const aging = (await csv(owner, "outstanding-by-age")).slice(1);
    assert.deepEqual(aging, [
      ["Not yet due", "1", "100.00"],
      ["0-30 days past due", "2", "220.00"],
      ["31-60 days past due", "1", "300.00"],
      ["61-90 days past due", "1", "400.00"],
      ["Over 90 days past due", "1", "500.00"],
    ]);

    // Top customers by what they paid; a name that would be a formula is escaped.
    const evilInvoice = await createInvoice(t.id, { customerId: evil.id });
    const annInvoice = await createInvoice(t.id, { customerId: ann.id });
    await pay(t.id, evilInvoice.id, 90_000, await localInstant(t.id, `${m1.date} 11:00`));
    await pay(t.id, annInvoice.id, 12_345, await localInstant(t.id, `${m1.date} 11:00`));
    const top = (await csv(owner, "top-customers")).slice(1);
    assert.deepEqual(top, [
      ["1", `'=HYPERLINK("http://evil.example")`, "900.00"],
      ["2", "Ann Customer", "123.45"],
    ]);
  });

  test("another tenant's records never count, and a period is chosen with a plain GET", async () => {
    const a = await createTenantWithUsers("Reports A");
    const b = await createTenantWithUsers("Reports B");
    const ca = await createCustomer(a.id, { name: "Only In A" });
    const cb = await createCustomer(b.id, { name: "Only In B" });
    const ia = await createInvoice(a.id, {
      customerId: ca.id,
      items: [{ description: "A work", unitPriceCents: 10_000 }],
    });
    const ib = await createInvoice(b.id, {
      customerId: cb.id,
      items: [{ description: "B work", unitPriceCents: 77_777 }],
    });
    await pay(a.id, ia.id, 10_000, new Date());
    await pay(b.id, ib.id, 77_777, new Date());
    const owner = await clientFor(a.users.owner);
    const text = pageText(await (await owner.get("/reports")).text());
    assert.match(text, /Only In A/);
    assert.doesNotMatch(text, /Only In B|777\.77/);
    const money = (await csv(owner, "invoiced-collected")).slice(1);
    assert.equal(
      money.reduce((s, r) => s + Number(r[1]), 0),
      100,
    );
    assert.equal(
      money.reduce((s, r) => s + Number(r[2]), 0),
      100,
    );

    const year = new Date().getUTCFullYear();
    const lastYear = (await csv(owner, "invoiced-collected", "?period=last-year")).slice(1).map((r) => r[0]);
    assert.ok(
      lastYear.length === 12 && lastYear[0].endsWith("-01") && lastYear[11].endsWith("-12"),
      `last year: ${lastYear.join(" ")}`,
    );
    assert.ok([year - 1, year - 2].includes(Number(lastYear[0].slice(0, 4))));
    const thisYear = (await csv(owner, "invoiced-collected", "?period=this-year")).slice(1).map((r) => r[0]);
    assert.ok(thisYear[0].endsWith("-01") && thisYear.length <= 12);
    const page = await (await owner.get("/reports?period=last-year")).text();
    assert.match(page, /<option value="last-year" selected="">/);
    assert.match(pageText(page), new RegExp(`Jan 1, ${lastYear[0].slice(0, 4)} to Dec 31, ${lastYear[0].slice(0, 4)}`));
  });

  test("technicians and office get 403 on the page and every CSV; an unknown report is 404", async () => {
    const t = await createTenantWithUsers("Reports access");
    for (const role of ["technician", "office"] as const) {
      const c = await clientFor(t.users[role]);
      assert.equal((await c.get("/reports")).status, 403, `${role}: page`);
      for (const name of [
        "invoiced-collected",
        "quote-conversion",
        "jobs-completed",
        "outstanding-by-age",
        "top-customers",
      ]) {
        assert.equal((await c.get(`/reports/${name}.csv`)).status, 403, `${role}: ${name}.csv`);
      }
    }
    const admin = await clientFor(t.users.admin);
    assert.equal((await admin.get("/reports")).status, 200);
    assert.equal((await admin.get("/reports/nope.csv")).status, 404);
    assert.equal((await admin.get("/reports/top-customers")).status, 404);
    const signedOut = await new Client().get("/reports");
    assert.equal(signedOut.status, 302);
    assert.match(signedOut.headers.get("location") ?? "", /^\/login\?redirectTo=%2Freports/);
  });
});

test("visits completed per technician: a crew visit counts for each member, each visit of a job counts, a job closed without visits counts once", async () => {
  const t = await createTenantWithUsers("Crew counts reports");
  const owner = await clientFor(t.users.owner);
  const customer = await createCustomer(t.id);
  const ann = await createUser(t.id, { role: "technician", name: "Ann Crew" });
  const ben = await createUser(t.id, { role: "technician", name: "Ben Crew" });
  const m1 = await monthAgo(t.id, 1, 10);
  const doneAt = await localInstant(t.id, `${m1.date} 16:00`);
  // A two-visit job: the first visit by Ann and Ben together, the second by Ann alone.
  const job = await createJob(t.id, { customerId: customer.id, assigneeId: ann.id, scheduledStart: doneAt });
  const first = (await one<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [
    t.id,
    job.id,
  ]))!;
  await rows(`INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES ($1, $2, $3)`, [
    t.id,
    first.id,
    ben.id,
  ]);
  const second = (await one<{ id: string }>(
    `INSERT INTO visits (tenant_id, job_id, starts_at, ends_at) VALUES ($1, $2, $3, $3) RETURNING id`,
    [t.id, job.id, new Date(doneAt.getTime() + 3600_000)],
  ))!;
  await rows(`INSERT INTO visit_assignees (tenant_id, visit_id, user_id) VALUES ($1, $2, $3)`, [
    t.id,
    second.id,
    ann.id,
  ]);
  await rows(`UPDATE visits SET status = 'completed', completed_at = $3 WHERE tenant_id = $1 AND job_id = $2`, [
    t.id,
    job.id,
    new Date(doneAt.getTime() + 2 * 3600_000),
  ]);
  // A job closed by the office without ever being scheduled: once, for its technician.
  const closed = await createJob(t.id, { customerId: customer.id, assigneeId: ben.id, scheduledStart: null });
  await rows(`UPDATE jobs SET status = 'completed', completed_at = $3 WHERE tenant_id = $1 AND id = $2`, [
    t.id,
    closed.id,
    doneAt,
  ]);

  const table = await csv(owner, "jobs-completed");
  const header = table[0];
  assert.deepEqual(header.slice(1), ["Ann Crew", "Ben Crew", "total"]);
  const week = table.slice(1).find((r) => r.slice(1, -1).some((v) => v !== "0"))!;
  assert.equal(week[header.indexOf("Ann Crew")], "2", "Ann: the crew visit and her own");
  assert.equal(week[header.indexOf("Ben Crew")], "2", "Ben: the crew visit and the job closed without visits");
  assert.equal(week.at(-1), "4");
  const page = pageText(await (await owner.get("/reports")).text());
  assert.match(page, /Visits completed per week by technician/);
});

test("top customers follow every change of the money: a payment recorded, a fold, a payment removed, a customer renamed", async () => {
  const t = await createTenantWithUsers("Reports top customers kept");
  const owner = await clientFor(t.users.owner);
  const ann = await createCustomer(t.id, { name: "Ann Ranked" });
  const bob = await createCustomer(t.id, { name: "Bob Ranked" });
  const m1 = await monthAgo(t.id, 1, 10);
  const at = await localInstant(t.id, `${m1.date} 10:00`);
  const annInvoice = await createInvoice(t.id, { customerId: ann.id });
  const bobInvoice = await createInvoice(t.id, { customerId: bob.id });
  const top = async () => (await csv(owner, "top-customers")).slice(1);

  assert.deepEqual(await top(), []);
  await pay(t.id, annInvoice.id, 50_000, at);
  assert.deepEqual(await top(), [["1", "Ann Ranked", "500.00"]]);
  assert.deepEqual(await top(), [["1", "Ann Ranked", "500.00"]], "asked again, unchanged");
  await pay(t.id, bobInvoice.id, 90_000, at);
  const both = [
    ["1", "Bob Ranked", "900.00"],
    ["2", "Ann Ranked", "500.00"],
  ];
  assert.deepEqual(await top(), both);
  await one(`SELECT summaries_fold($1)`, [t.id]);
  assert.deepEqual(await top(), both, "after a fold");
  // Removed and entered again on the other customer's invoice: the same total collected.
  await rows(`DELETE FROM payments WHERE tenant_id = $1 AND invoice_id = $2`, [t.id, bobInvoice.id]);
  await one(`SELECT summaries_fold($1)`, [t.id]);
  await pay(t.id, annInvoice.id, 90_000, at);
  await one(`SELECT summaries_fold($1)`, [t.id]);
  assert.deepEqual(await top(), [["1", "Ann Ranked", "1400.00"]]);
  await rows(`UPDATE customers SET name = 'Ann Renamed' WHERE tenant_id = $1 AND id = $2`, [t.id, ann.id]);
  assert.deepEqual(await top(), [["1", "Ann Renamed", "1400.00"]]);
});
