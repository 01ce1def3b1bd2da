import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { signPortalToken } from "../../app/services/portal/links.server";
import { signIdToken } from "../../app/utils/signed-ids.server";
import { createInvite } from "../../app/services/team/invites.server";
import { BASE_URL, clientFor, type Client } from "../helpers/client";
import {
  createCustomer,
  createInvoice,
  createJob,
  createQuote,
  createUser,
  twoTenants,
  type TestTenant,
} from "../helpers/fixtures";
import { textOf } from "../helpers/html";
import { commit, idIn, preview, upload } from "../helpers/import";
import { portalRequest, portalSetup, randomLoopback } from "../helpers/portal";
import { jpegLike, putPhoto } from "../helpers/photos";

// CONTRACT section 2: "An id of another tenant behaves exactly like an id that does not exist."
// One table of every route that takes an id (in the path, the query, a form or a JSON body, or
// inside a token): each is asked once with a random id that exists nowhere and once with a real
// id of another tenant (and, on the portal, of another customer). The two answers must be the
// same (status, redirect, error code, the page's text with the id blanked), and the other
// tenant's rows must not change at all.

type Answer = { status: number; location: string | null; body: string };

/** What a person or a client sees of a response, with the id asked about blanked out. */
async function answer(
  res: Response | { status: number; headers: Record<string, unknown>; text: string },
  id: string,
): Promise<Answer> {
  const blank = (s: string) =>
    s
      .split(id)
      .join(":id")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ":uuid");
  const isFetch = res instanceof Response;
  const type = String((isFetch ? res.headers.get("content-type") : res.headers["content-type"]) ?? "");
  const location = (isFetch ? res.headers.get("location") : (res.headers.location as string | undefined)) ?? null;
  const raw = isFetch ? await res.text() : res.text;
  let body: string;
  if (type.includes("json")) {
    const env = JSON.parse(raw) as {
      success: boolean;
      error?: { code: string; message: string; fields: unknown };
      data?: { results?: unknown[] };
    };
    // The envelope without meta (request ids differ); for a push, its per-mutation results.
    body = JSON.stringify(env.success ? (env.data?.results ?? env.data) : env.error);
  } else body = textOf(raw);
  return { status: res.status, location: location && blank(location), body: blank(body) };
}

/** Every row of every tenant-owned table of one tenant, as one fingerprint per table. */
async function fingerprint(tenantId: string): Promise<Record<string, string>> {
  const tables = await rows<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name = 'tenant_id'
        AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE')
      ORDER BY table_name`,
  );
  const out: Record<string, string> = {};
  for (const { table_name } of tables) {
    const r = await one<{ n: number; digest: string | null }>(
      `SELECT count(*)::int AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM "${table_name}" t WHERE tenant_id = $1`,
      [tenantId],
    );
    out[table_name] = `${r!.n}:${r!.digest ?? ""}`;
  }
  return out;
}

/** Tenant B's records, each reachable only by its id. */
async function theirRecords(b: TestTenant) {
  const customer = await createCustomer(b.id, { name: "Ines Theirs", email: `ines-${b.id.slice(0, 8)}@example.test` });
  const job = await createJob(b.id, {
    customerId: customer.id,
    title: "Their boiler service",
    assigneeId: b.users.technician.id,
  });
  const quote = await createQuote(b.id, { customerId: customer.id });
  const invoice = await createInvoice(b.id, { customerId: customer.id });
  const portal = await portalSetup({ tenant: b, customerName: "Ines Portal" });
  const request = await one<{ id: string }>(
    `INSERT INTO booking_requests (tenant_id, customer_id, service) VALUES ($1, $2, 'Their request') RETURNING id`,
    [b.id, customer.id],
  );
  const member = await createUser(b.id, { role: "technician", name: "Theo Theirs", password: null });
  const feed = await one<{ id: string }>(
    `INSERT INTO calendar_feeds (tenant_id, user_id, created_by) VALUES ($1, $2, $2) RETURNING id`,
    [b.id, b.users.technician.id],
  );
  const priceBookItem = (await one<{ id: string }>(
    `INSERT INTO price_book_items (tenant_id, name, unit_price_cents) VALUES ($1, 'Their flush', 100) RETURNING id`,
    [b.id],
  ))!;
  const taxRate = (await one<{ id: string }>(
    `INSERT INTO tax_rates (tenant_id, name, rate) VALUES ($1, 'Their state', 6.25) RETURNING id`,
    [b.id],
  ))!;
  const invite = await createInvite({ tenantId: b.id, userId: b.users.owner.id, role: "owner" }, member.id);
  const photo = (await one<{ id: string }>(
    `INSERT INTO job_photos (tenant_id, id, job_id, taken_by, taken_at, content_type, byte_size, sha256, bytes)
     VALUES ($1, gen_random_uuid(), $2, $3, now(), 'image/jpeg', 4, repeat('0', 64), '\\xffd8ffe0'::bytea) RETURNING id`,
    [b.id, job.id, b.users.technician.id],
  ))!;
  // Their company logo (a 1x1 PNG's first bytes suffice: the row is only looked up).
  const logo = (await one<{ id: string }>(
    `INSERT INTO company_logos (tenant_id, id, content_type, width, height, byte_size, sha256, bytes)
     VALUES ($1, gen_random_uuid(), 'image/png', 1, 1, 8, repeat('0', 64), '\\x89504e470d0a1a0a'::bytea) RETURNING id`,
    [b.id],
  ))!;
  const accountExport = (await one<{ id: string }>(
    `INSERT INTO account_exports (tenant_id, requested_by, requested_by_name, state, steps_total, steps_done, finished_at, expires_at)
     VALUES ($1, $2, 'Their owner', 'ready', 1, 1, now(), now() + interval '1 day') RETURNING id`,
    [b.id, b.users.owner.id],
  ))!;
  // A visit of their job, on their technician's crew.
  const visit = (await one<{ id: string }>(
    `WITH v AS (INSERT INTO visits (tenant_id, job_id, starts_at, ends_at) VALUES ($1, $2, now() + interval '3 days', now() + interval '3 days 1 hour') RETURNING tenant_id, id)
     INSERT INTO visit_assignees (tenant_id, visit_id, user_id) SELECT tenant_id, id, $3 FROM v RETURNING visit_id AS id`,
    [b.id, job.id, b.users.technician.id],
  ))!;
  // A time entry of their technician (a timesheet line).
  const timeEntry = (await one<{ id: string }>(
    `INSERT INTO time_entries (tenant_id, job_id, user_id, started_at, ended_at) VALUES ($1, $2, $3, now() - interval '2 hours', now() - interval '1 hour') RETURNING id`,
    [b.id, job.id, b.users.technician.id],
  ))!;
  // A manual entry of theirs waiting for their office (pending).
  const pendingEntry = (await one<{ id: string }>(
    `INSERT INTO time_entries (tenant_id, user_id, started_at, ended_at, kind, state, origin)
     VALUES ($1, $2, now() - interval '4 hours', now() - interval '3 hours', 'work', 'pending', 'technician') RETURNING id`,
    [b.id, b.users.technician.id],
  ))!;
  const cb = await clientFor(b.users.owner);
  const run = idIn(
    await commit(cb, await preview(cb, "customers", `name,email\nIvy Imported,ivy-${b.id.slice(0, 8)}@example.test\n`)),
    "run",
  );
  const pending = await preview(cb, "customers", `name,email\nIan Pending,ian-${b.id.slice(0, 8)}@example.test\n`);
  // A file waiting at the mapping step (an ambiguous header).
  const waiting = await upload(
    cb,
    "customers",
    `Client Name,Email Address,Contact\nUna Uploaded,una-${b.id.slice(0, 8)}@example.test,555-0100\n`,
  );
  const uploadId = new URL(waiting.headers.get("location")!, "http://x").searchParams.get("upload")!;
  return {
    customer,
    job,
    quote,
    invoice,
    portal,
    request: request!,
    member,
    run,
    pending,
    priceBookItem,
    taxRate,
    accountExport,
    uploadId,
    feed: feed!,
    photo,
    logo,
    visit,
    timeEntry,
    pendingEntry,
    inviteSecret: new URL(invite.url).pathname.split("/").pop()!.split(".")[1],
  };
}

type Case = {
  route: string;
  /** Asks the route about `id`. */
  ask: (id: string) => Promise<Response | { status: number; headers: Record<string, unknown>; text: string }>;
  /** Real ids that are not ours to see: another tenant's (and, on the portal, another customer's). */
  theirs: string[];
  /** A fresh id that exists nowhere (a random UUID unless the route takes something else). */
  missing?: () => string;
  /** The status both answers have. */
  status: number;
};

test("every route that takes an id answers another tenant's id exactly as a missing one, and changes nothing of theirs", async () => {
  const { a, b } = await twoTenants();
  const t = await theirRecords(b);
  // Our own records, so the routes have something real to work on.
  const ours = await portalSetup({ tenant: a, customerName: "Olga Ours" });
  const ourOtherCustomer = await createCustomer(a.id, { name: "Otto Other" });
  const otherCustomersQuote = await createQuote(a.id, { customerId: ourOtherCustomer.id });
  const otherCustomersInvoice = await createInvoice(a.id, { customerId: ourOtherCustomer.id });
  const ourJob = await createJob(a.id, { customerId: ourOtherCustomer.id, title: "Our gutter cleaning" });
  const ourTechJob = await createJob(a.id, {
    customerId: ourOtherCustomer.id,
    title: "Our tap washer",
    assigneeId: a.users.technician.id,
  });
  const visitOf = async (jobId: string) =>
    (await one<{ id: string }>(`SELECT id FROM visits WHERE tenant_id = $1 AND job_id = $2`, [a.id, jobId]))!;
  const ourJobVisit = await visitOf(ourJob.id);
  const ourVisit = await one<{ id: string }>(
    `INSERT INTO visits (tenant_id, job_id, starts_at, ends_at) VALUES ($1, $2, now() + interval '3 days', now() + interval '3 days 1 hour') RETURNING id`,
    [a.id, ourJob.id],
  );
  const ourPhotoId = randomUUID();
  const photoBytes = jpegLike(2048);
  const takenAt = new Date(Date.now() - 3600_000).toISOString();

  const owner = await clientFor(a.users.owner);
  const office = await clientFor(a.users.office);
  const tech = await clientFor(a.users.technician);
  assert.equal((await putPhoto(tech, ourTechJob.id, ourPhotoId, photoBytes, { takenAt })).status, 201);
  const ip = randomLoopback();
  const aPrefix = Buffer.from(a.id.replace(/-/g, ""), "hex").toString("base64url");
  const occurredAt = new Date().toISOString();
  const push = (c: Client, jobId: string) =>
    c.postJson("/api/offline-sync", {
      clientId: randomUUID(),
      mutations: [{ id: 1, type: "job.status", occurredAt, args: { jobId, status: "en_route" } }],
    });
  const mutation = (c: Client, type: string, args: Record<string, string>) =>
    c.postJson("/api/offline-sync", { clientId: randomUUID(), mutations: [{ id: 1, type, occurredAt, args }] });

  const cases: Case[] = [
    // Pages with the id in the path.
    { route: "GET /customers/<id>", ask: (id) => owner.get(`/customers/${id}`), theirs: [t.customer.id], status: 404 },
    { route: "GET /jobs/<id>", ask: (id) => owner.get(`/jobs/${id}`), theirs: [t.job.id], status: 404 },
    { route: "GET /jobs/<id> (technician)", ask: (id) => tech.get(`/jobs/${id}`), theirs: [t.job.id], status: 404 },
    { route: "GET /jobs/<id>/edit", ask: (id) => owner.get(`/jobs/${id}/edit`), theirs: [t.job.id], status: 404 },
    {
      route: "GET /jobs/new?customerId=<id>",
      ask: (id) => owner.get(`/jobs/new?customerId=${id}`),
      theirs: [t.customer.id],
      status: 200,
    },
    { route: "GET /quotes/<id>", ask: (id) => owner.get(`/quotes/${id}`), theirs: [t.quote.id], status: 404 },
    { route: "GET /invoices/<id>", ask: (id) => owner.get(`/invoices/${id}`), theirs: [t.invoice.id], status: 404 },
    {
      route: "POST /customers/<id> (a service property)",
      ask: (id) =>
        owner.post(`/customers/${id}`, { intent: "property.add", label: "Mallory's", addressLine1: "1 Evil St" }),
      theirs: [t.customer.id],
      status: 404,
    },
    {
      route: "GET /customers/<id>/portal-links",
      ask: (id) => owner.get(`/customers/${id}/portal-links`),
      theirs: [t.customer.id],
      status: 404,
    },
    {
      route: "GET /team/<id>/invite",
      ask: (id) => owner.get(`/team/${id}/invite`),
      theirs: [t.member.id],
      status: 404,
    },
    {
      route: "GET /customers/<id>/edit",
      ask: (id) => office.get(`/customers/${id}/edit`),
      theirs: [t.customer.id],
      status: 404,
    },
    {
      route: "GET /quotes/<id>/edit",
      ask: (id) => office.get(`/quotes/${id}/edit`),
      theirs: [t.quote.id],
      status: 404,
    },
    {
      route: "GET /quotes/new?customerId=<id>",
      ask: (id) => office.get(`/quotes/new?customerId=${id}`),
      theirs: [t.customer.id],
      status: 404,
    },
    {
      route: "GET /quotes/new?requestId=<id>",
      ask: (id) => office.get(`/quotes/new?requestId=${id}`),
      theirs: [t.request.id],
      status: 404,
    },
    // Documents customers keep (CONTRACT section 16).
    { route: "GET /quotes/<id>.pdf", ask: (id) => owner.get(`/quotes/${id}.pdf`), theirs: [t.quote.id], status: 404 },
    {
      route: "GET /invoices/<id>.pdf",
      ask: (id) => owner.get(`/invoices/${id}.pdf`),
      theirs: [t.invoice.id],
      status: 404,
    },
    {
      route: "GET /invoices/<id>/receipts/<paymentId>.pdf",
      ask: (id) => owner.get(`/invoices/${id}/receipts/${randomUUID()}.pdf`),
      theirs: [t.invoice.id],
      status: 404,
    },
    // Lists filtered by an id in the query.
    {
      route: "GET /jobs?customer=<id>",
      ask: (id) => owner.get(`/jobs?status=all&customer=${id}`),
      theirs: [t.customer.id],
      status: 200,
    },
    {
      route: "GET /jobs?assignee=<id>",
      ask: (id) => owner.get(`/jobs?status=all&assignee=${id}`),
      theirs: [b.users.technician.id],
      status: 200,
    },
    {
      route: "GET /quotes?customer=<id>",
      ask: (id) => owner.get(`/quotes?customer=${id}`),
      theirs: [t.customer.id],
      status: 200,
    },
    {
      route: "GET /invoices?customer=<id>",
      ask: (id) => owner.get(`/invoices?customer=${id}`),
      theirs: [t.customer.id],
      status: 200,
    },
    // Import runs by id in the query.
    {
      route: "GET /import-data?type=customers&preview=<id>",
      ask: (id) => owner.get(`/import-data?type=customers&preview=${id}`),
      theirs: [t.pending],
      status: 404,
    },
    {
      route: "GET /import-data?preview=<id>",
      ask: (id) => owner.get(`/import-data?preview=${id}`),
      theirs: [t.pending],
      status: 404,
    },
    {
      route: "GET /import-data?type=customers&run=<id>",
      ask: (id) => owner.get(`/import-data?type=customers&run=${id}`),
      theirs: [t.run],
      status: 404,
    },
    {
      route: "GET /import-data?run=<id>",
      ask: (id) => owner.get(`/import-data?run=${id}`),
      theirs: [t.run],
      status: 404,
    },
    {
      route: "GET /import-data?type=customers&upload=<id>",
      ask: (id) => owner.get(`/import-data?type=customers&upload=${id}`),
      theirs: [t.uploadId],
      status: 404,
    },
    {
      route: "GET /import-data/map?upload=<id>",
      ask: (id) => owner.get(`/import-data/map?type=customers&upload=${id}`),
      theirs: [t.uploadId],
      status: 200,
    },
    {
      route: "POST /import-data/map (uploadId)",
      ask: (id) =>
        owner.post(`/import-data/map?type=customers&upload=${id}`, {
          uploadId: id,
          "column.0": "name",
          "column.1": "email",
          "column.2": "phone",
        }),
      theirs: [t.uploadId],
      status: 404,
    },
    {
      route: "GET /import-data/errors?preview=<id>",
      ask: (id) => owner.get(`/import-data/errors?preview=${id}`),
      theirs: [t.pending],
      status: 404,
    },
    {
      route: "GET /import-data/left-out?preview=<id>",
      ask: (id) => owner.get(`/import-data/left-out?preview=${id}`),
      theirs: [t.pending],
      status: 404,
    },
    // Forms with the id in the path.
    {
      route: "POST /customers/<id>/portal-links",
      ask: (id) => owner.post(`/customers/${id}/portal-links`, { days: 5 }),
      theirs: [t.customer.id],
      status: 404,
    },
    {
      route: "POST /portal-links/<id>/revoke",
      ask: (id) => owner.post(`/portal-links/${id}/revoke`, {}),
      theirs: [t.portal.linkId],
      status: 404,
    },
    {
      route: "POST /team/<id>/invite",
      ask: (id) => owner.post(`/team/${id}/invite`, {}),
      theirs: [t.member.id],
      status: 404,
    },
    // A visit's edit page and its form (docs/decisions/316-visit-edit.md).
    { route: "GET /visits/<id>/edit", ask: (id) => owner.get(`/visits/${id}/edit`), theirs: [t.visit.id], status: 404 },
    {
      route: "GET /visits/<id>/edit (technician)",
      ask: (id) => tech.get(`/visits/${id}/edit`),
      theirs: [t.visit.id],
      status: 404,
    },
    {
      route: "POST /visits/<id>/edit",
      ask: (id) => office.post(`/visits/${id}/edit`, { intent: "cancel" }),
      theirs: [t.visit.id],
      status: 404,
    },
    {
      route: "POST /visits/<id>/edit (technician)",
      ask: (id) => tech.post(`/visits/${id}/edit`, { intent: "cancel" }),
      theirs: [t.visit.id],
      status: 404,
    },
    {
      route: "POST /visits/<id>/edit (assigneeIds)",
      ask: (id) =>
        office.post(`/visits/${ourVisit!.id}/edit`, {
          intent: "save",
          start: "2030-06-04T09:00",
          end: "2030-06-04T11:00",
          assigneeIds: id,
        }),
      theirs: [b.users.technician.id, t.member.id],
      status: 422,
    },
    // The schedule (CONTRACT section 13): the move form and its action, calendar feed links.
    {
      route: "GET /jobs/<id>/schedule",
      ask: (id) => owner.get(`/jobs/${id}/schedule`),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /jobs/<id>/schedule",
      ask: (id) =>
        office.post(`/jobs/${id}/schedule`, {
          assigneeId: a.users.technician.id,
          scheduledStart: "2030-06-04T09:00",
          scheduledEnd: "2030-06-04T11:00",
        }),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /jobs/<id>/schedule (the board's fetcher)",
      // Remix's data answer (not the envelope): compared as text.
      ask: async (id) => {
        const res = await office.post(`/jobs/${id}/schedule?_data=routes%2Fjobs.%24id_.schedule`, {
          via: "board",
          scheduledStart: "2030-06-04T09:00",
          scheduledEnd: "2030-06-04T11:00",
        });
        return { status: res.status, headers: { "content-type": "text/plain" }, text: await res.text() };
      },
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /jobs/<id>/schedule (assigneeId)",
      // A job with one visit (ourJob has two: its own time is then moved visit by visit, 409).
      ask: (id) =>
        office.post(`/jobs/${ourTechJob.id}/schedule`, {
          assigneeId: id,
          scheduledStart: "2030-06-04T09:00",
          scheduledEnd: "2030-06-04T11:00",
        }),
      theirs: [b.users.technician.id, t.member.id],
      status: 422,
    },
    // Visits (CONTRACT section 20): a job's new visit, a visit's time and crew.
    { route: "GET /jobs/<id>/visits", ask: (id) => office.get(`/jobs/${id}/visits`), theirs: [t.job.id], status: 404 },
    {
      route: "POST /jobs/<id>/visits",
      ask: (id) => office.post(`/jobs/${id}/visits`, { start: "2030-06-04T09:00", end: "2030-06-06T17:00" }),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /jobs/<id>/visits (assigneeIds)",
      ask: (id) =>
        office.post(`/jobs/${ourJob.id}/visits`, {
          start: "2030-06-04T09:00",
          end: "2030-06-04T11:00",
          assigneeIds: id,
        }),
      theirs: [b.users.technician.id, t.member.id],
      status: 422,
    },
    {
      route: "GET /visits/<id>/schedule",
      ask: (id) => owner.get(`/visits/${id}/schedule`),
      theirs: [t.visit.id],
      status: 404,
    },
    {
      route: "GET /visits/<id>/schedule (technician)",
      ask: (id) => tech.get(`/visits/${id}/schedule`),
      // Another tenant's visit, and one of ours the technician is not on.
      theirs: [t.visit.id, ourJobVisit.id],
      status: 404,
    },
    {
      route: "POST /visits/<id>/schedule (technician)",
      ask: (id) => tech.post(`/visits/${id}/schedule`, { start: "2030-06-04T09:00", end: "2030-06-04T11:00" }),
      theirs: [t.visit.id, ourJobVisit.id],
      status: 404,
    },
    {
      route: "POST /visits/<id>/invoice (technician)",
      ask: (id) => tech.post(`/visits/${id}/invoice`, {}),
      theirs: [t.visit.id, ourJobVisit.id],
      status: 404,
    },
    {
      route: "GET /jobs/<id>/visits (technician)",
      ask: (id) => tech.get(`/jobs/${id}/visits`),
      theirs: [t.job.id, ourJob.id],
      status: 404,
    },
    {
      route: "POST /jobs/<id>/visits (technician)",
      ask: (id) => tech.post(`/jobs/${id}/visits`, { start: "2030-06-04T09:00", end: "2030-06-04T11:00" }),
      theirs: [t.job.id, ourJob.id],
      status: 404,
    },
    {
      route: "POST /visits/<id>/schedule",
      ask: (id) =>
        office.post(`/visits/${id}/schedule`, {
          assigneeIds: a.users.technician.id,
          start: "2030-06-04T09:00",
          end: "2030-06-04T11:00",
        }),
      theirs: [t.visit.id],
      status: 404,
    },
    {
      route: "POST /visits/<id>/schedule (all empty)",
      ask: (id) => office.post(`/visits/${id}/schedule`, {}),
      theirs: [t.visit.id],
      status: 404,
    },
    {
      route: "POST /visits/<id>/schedule (the board's fetcher)",
      ask: async (id) => {
        const res = await office.post(`/visits/${id}/schedule?_data=routes%2Fvisits.%24id_.schedule`, {
          via: "board",
          start: "2030-06-04T09:00",
          end: "2030-06-04T11:00",
        });
        return { status: res.status, headers: { "content-type": "text/plain" }, text: await res.text() };
      },
      theirs: [t.visit.id],
      status: 404,
    },
    {
      route: "POST /visits/<id>/schedule (assigneeIds)",
      ask: (id) =>
        office.post(`/visits/${ourJobVisit.id}/schedule`, {
          assigneeIds: id,
          start: "2030-06-04T09:00",
          end: "2030-06-04T11:00",
        }),
      theirs: [b.users.technician.id, t.member.id],
      status: 422,
    },
    {
      route: "POST /settings/calendar/feeds (userId)",
      ask: (id) => owner.post("/settings/calendar/feeds", { userId: id }),
      theirs: [b.users.technician.id, t.member.id],
      status: 404,
    },
    {
      route: "POST /settings/calendar/feeds/<id>/revoke",
      ask: (id) => owner.post(`/settings/calendar/feeds/${id}/revoke`, {}),
      theirs: [t.feed.id],
      status: 404,
    },
    {
      route: "GET /calendar/<token> (our tenant, their feed id)",
      ask: (token) => tech.get(`/calendar/${token}.ics`),
      theirs: [signIdToken("calendar", a.id, t.feed.id)],
      missing: () => signIdToken("calendar", a.id, randomUUID()),
      status: 404,
    },
    {
      route: "POST /customers/<id>/edit",
      ask: (id) => office.post(`/customers/${id}/edit`, { name: "Mallory" }),
      theirs: [t.customer.id],
      status: 404,
    },
    {
      route: "POST /quotes/<id>/edit",
      theirs: [t.quote.id],
      status: 404,
      ask: (id) =>
        office.post(`/quotes/${id}/edit`, {
          customerId: ourOtherCustomer.id,
          "items[0].description": "Mallory",
          "items[0].unitPrice": "1",
        }),
    },
    {
      route: "POST /customers/<id>/reminders",
      ask: (id) => office.post(`/customers/${id}/reminders`, { on: "false" }),
      theirs: [t.customer.id],
      status: 404,
    },
    {
      route: "GET /quotes/<id>/send",
      ask: (id) => office.get(`/quotes/${id}/send`),
      theirs: [t.quote.id],
      status: 404,
    },
    {
      route: "POST /quotes/<id>/send",
      ask: (id) => office.post(`/quotes/${id}/send`, {}),
      theirs: [t.quote.id],
      status: 404,
    },
    {
      route: "POST /quotes/<id>/convert",
      ask: (id) => office.post(`/quotes/${id}/convert`, {}),
      theirs: [t.quote.id],
      status: 404,
    },
    {
      route: "GET /invoices/<id>/payments",
      ask: (id) => owner.get(`/invoices/${id}/payments`),
      theirs: [t.invoice.id],
      status: 404,
    },
    {
      route: "GET /invoices/<id>/void",
      ask: (id) => owner.get(`/invoices/${id}/void`),
      theirs: [t.invoice.id],
      status: 404,
    },
    {
      route: "POST /invoices/<id>/payments",
      ask: (id) =>
        owner.post(`/invoices/${id}/payments`, {
          amount: "10.00",
          method: "cash",
          receivedOn: "2026-01-05",
          idempotencyKey: randomBytes(16).toString("base64url"),
        }),
      theirs: [t.invoice.id],
      status: 404,
    },
    {
      route: "POST /invoices/<id>/void",
      ask: (id) => owner.post(`/invoices/${id}/void`, {}),
      theirs: [t.invoice.id],
      status: 404,
    },
    // Invoices by hand (CONTRACT section 12).
    {
      route: "GET /invoices/new?customerId=<id>",
      ask: (id) => office.get(`/invoices/new?customerId=${id}`),
      theirs: [t.customer.id],
      status: 404,
    },
    {
      route: "GET /invoices/<id>/edit",
      ask: (id) => office.get(`/invoices/${id}/edit`),
      theirs: [t.invoice.id],
      status: 404,
    },
    {
      route: "POST /invoices/<id>/edit",
      theirs: [t.invoice.id],
      status: 404,
      ask: (id) =>
        office.post(`/invoices/${id}/edit`, {
          customerId: ourOtherCustomer.id,
          "items[0].description": "Mallory",
          "items[0].unitPrice": "1",
        }),
    },
    {
      route: "GET /invoices/<id>/send",
      ask: (id) => office.get(`/invoices/${id}/send`),
      theirs: [t.invoice.id],
      status: 404,
    },
    {
      route: "POST /invoices/<id>/send",
      ask: (id) => office.post(`/invoices/${id}/send`, {}),
      theirs: [t.invoice.id],
      status: 404,
    },
    {
      route: "POST /jobs/<id>/invoice",
      ask: (id) => office.post(`/jobs/${id}/invoice`, {}),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /visits/<id>/invoice",
      ask: (id) => office.post(`/visits/${id}/invoice`, {}),
      theirs: [t.visit.id],
      status: 404,
    },
    { route: "GET /jobs/<id>/items", ask: (id) => owner.get(`/jobs/${id}/items`), theirs: [t.job.id], status: 404 },
    {
      route: "POST /jobs/<id>/items",
      ask: (id) => office.post(`/jobs/${id}/items`, { description: "Taken over", unitPrice: "1.00" }),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /jobs/<id>/items?intent=billing",
      ask: (id) => office.post(`/jobs/${id}/items?intent=billing`, { billing: "per_visit" }),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /invoices/new (customerId)",
      status: 422,
      ask: (id) =>
        office.post(`/invoices/new?customerId=${ourOtherCustomer.id}`, {
          customerId: id,
          "items[0].description": "Mallory",
          "items[0].unitPrice": "1",
        }),
      theirs: [t.customer.id],
    },
    {
      route: "POST /requests/<id>/convert",
      ask: (id) => owner.post(`/requests/${id}/convert`, { to: "job" }),
      theirs: [t.request.id],
      status: 404,
    },
    {
      route: "POST /jobs/<id>/edit",
      ask: (id) => owner.post(`/jobs/${id}/edit`, { customerId: ours.customer.id, title: "Taken over" }),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /jobs/<id> (cancel)",
      ask: (id) => owner.post(`/jobs/${id}`, { intent: "cancel" }),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /jobs/<id> (reopen)",
      ask: (id) => owner.post(`/jobs/${id}`, { intent: "reopen" }),
      theirs: [t.job.id],
      status: 404,
    },
    // Forms with the id in the body.
    {
      route: "POST /jobs/new (customerId)",
      ask: (id) => owner.post("/jobs/new", { customerId: id, title: "For them" }),
      theirs: [t.customer.id],
      status: 422,
    },
    {
      route: "POST /jobs/new (assigneeId)",
      ask: (id) => owner.post("/jobs/new", { customerId: ours.customer.id, title: "By them", assigneeId: id }),
      theirs: [b.users.technician.id],
      status: 422,
    },
    {
      route: "POST /team (role of userId)",
      ask: (id) => owner.post("/team", { intent: "role", userId: id, role: "office" }),
      theirs: [t.member.id],
      status: 404,
    },
    {
      route: "POST /quotes/new (customerId)",
      status: 422,
      ask: (id) =>
        office.post(`/quotes/new?customerId=${ourOtherCustomer.id}`, {
          customerId: id,
          "items[0].description": "Mallory",
          "items[0].unitPrice": "1",
        }),
      theirs: [t.customer.id],
    },
    {
      route: "POST /settings/price-book?intent=remove (id)",
      ask: (id) => office.post("/settings/price-book?intent=remove", { id }),
      theirs: [t.priceBookItem.id],
      status: 404,
    },
    {
      route: "POST /settings/price-book (id)",
      ask: (id) => office.post("/settings/price-book", { id, name: "Mallory", unitPrice: "1" }),
      theirs: [t.priceBookItem.id],
      status: 404,
    },
    // Timesheets: a person's week, entries, approval.
    {
      route: "GET /timesheets?userId=<id>",
      ask: (id) => office.get(`/timesheets?userId=${id}`),
      theirs: [b.users.technician.id],
      status: 404,
    },
    {
      route: "GET /timesheets?userId=<id> (technician)",
      ask: (id) => tech.get(`/timesheets?userId=${id}`),
      theirs: [b.users.technician.id],
      status: 404,
    },
    {
      route: "POST /timesheets/entries (userId)",
      ask: (id) =>
        office.post("/timesheets/entries", {
          userId: id,
          kind: "work",
          start: "2026-06-16T08:00",
          end: "2026-06-16T09:00",
        }),
      theirs: [b.users.technician.id],
      status: 404,
    },
    {
      route: "POST /timesheets/entries/<id>",
      ask: (id) => office.post(`/timesheets/entries/${id}`, { intent: "delete", reason: "Mallory" }),
      theirs: [t.timeEntry.id],
      status: 404,
    },
    {
      route: "POST /timesheets/entries/<id> (update)",
      ask: (id) =>
        office.post(`/timesheets/entries/${id}`, {
          intent: "update",
          userId: a.users.technician.id,
          kind: "work",
          start: "2026-06-16T08:00",
          end: "2026-06-16T09:00",
          reason: "Mallory",
        }),
      theirs: [t.timeEntry.id, t.pendingEntry.id],
      status: 404,
    },
    {
      route: "POST /timesheets/entries/<id> (accept)",
      ask: (id) => owner.post(`/timesheets/entries/${id}`, { intent: "accept" }),
      theirs: [t.pendingEntry.id, t.timeEntry.id],
      status: 404,
    },
    {
      route: "POST /timesheets/entries/<id> (discard)",
      ask: (id) => office.post(`/timesheets/entries/${id}`, { intent: "discard", reason: "Mallory" }),
      theirs: [t.pendingEntry.id],
      status: 404,
    },
    {
      route: "POST /timesheets/entries (visitId)",
      ask: (id) =>
        office.post("/timesheets/entries", {
          userId: a.users.technician.id,
          kind: "work",
          start: "2026-06-16T08:00",
          end: "2026-06-16T09:00",
          visitId: id,
        }),
      theirs: [t.visit.id],
      status: 422,
    },
    {
      route: "POST /timesheets/approve (userId)",
      ask: (id) => owner.post("/timesheets/approve", { userId: id, week: "2026-06-16" }),
      theirs: [b.users.technician.id],
      status: 404,
    },
    {
      route: "POST /timesheets/reopen (userId)",
      ask: (id) => owner.post("/timesheets/reopen", { userId: id, week: "2026-06-16" }),
      theirs: [b.users.technician.id],
      status: 404,
    },
    {
      route: "POST /settings/taxes/<id> (archive)",
      ask: (id) => owner.post(`/settings/taxes/${id}`, { intent: "archive" }),
      theirs: [t.taxRate.id],
      status: 404,
    },
    {
      route: "DELETE /settings/taxes/<id>",
      ask: async (id) => owner.request("DELETE", `/settings/taxes/${id}`, { body: { _csrf: await owner.csrf() } }),
      theirs: [t.taxRate.id],
      status: 404,
    },
    {
      route: "GET /settings/taxes?edit=<id>",
      ask: (id) => owner.get(`/settings/taxes?edit=${id}`),
      theirs: [t.taxRate.id],
      status: 404,
    },
    {
      route: "POST /settings/taxes (id)",
      ask: (id) => owner.post("/settings/taxes", { id, name: "Mallory", rate: "1" }),
      theirs: [t.taxRate.id],
      status: 404,
    },
    {
      route: "POST /quotes/new (items[0].taxRateId)",
      status: 422,
      ask: (id) =>
        office.post(`/quotes/new?customerId=${ourOtherCustomer.id}`, {
          customerId: ourOtherCustomer.id,
          "items[0].description": "Mallory",
          "items[0].unitPrice": "1",
          "items[0].taxRateId": id,
        }),
      theirs: [t.taxRate.id],
    },
    {
      route: "GET /settings/export/<id>.zip",
      ask: (id) => owner.get(`/settings/export/${id}.zip`),
      theirs: [t.accountExport.id],
      status: 404,
    },
    {
      route: "GET /settings/price-book?edit=<id>",
      ask: (id) => office.get(`/settings/price-book?edit=${id}`),
      theirs: [t.priceBookItem.id],
      status: 404,
    },
    {
      route: "POST /requests (requestId)",
      ask: (id) => owner.post("/requests", { requestId: id, status: "declined" }),
      theirs: [t.request.id],
      status: 404,
    },
    {
      route: "POST /import-data/commit (previewId)",
      ask: (id) => owner.post("/import-data/commit", { previewId: id }),
      theirs: [t.pending],
      status: 404,
    },
    {
      route: "POST /import-data/commit (previewId, intent valid-rows)",
      ask: (id) => owner.post("/import-data/commit", { previewId: id, intent: "valid-rows" }),
      theirs: [t.pending],
      status: 404,
    },
    {
      route: "POST /import-data/undo (runId)",
      ask: (id) => owner.post("/import-data/undo", { runId: id }),
      theirs: [t.run],
      status: 404,
    },
    {
      route: "POST /field status (jobId)",
      ask: (id) => office.post("/field", { intent: "status", jobId: id, status: "en_route" }),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /field note (jobId)",
      ask: (id) => office.post("/field", { intent: "note", jobId: id, body: "Checked it" }),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /field note (jobId, technician)",
      ask: (id) => tech.post("/field", { intent: "note", jobId: id, body: "Checked it" }),
      theirs: [t.job.id],
      status: 404,
    },
    // JSON: offline sync mutations name a job.
    {
      route: "POST /api/offline-sync job.status (jobId)",
      ask: (id) => push(office, id),
      theirs: [t.job.id],
      status: 200,
    },
    {
      route: "POST /api/offline-sync job.note (jobId, technician)",
      ask: (id) => mutation(tech, "job.note", { jobId: id, body: "Checked it" }),
      theirs: [t.job.id],
      status: 200,
    },
    {
      route: "POST /api/offline-sync job.time_entry (jobId)",
      ask: (id) =>
        mutation(office, "job.time_entry", {
          jobId: id,
          startedAt: new Date(Date.now() - 3600_000).toISOString(),
          endedAt: occurredAt,
        }),
      theirs: [t.job.id],
      status: 200,
    },
    // The company logo's public address names the tenant and the logo: their logo's id under
    // our tenant is no logo of ours.
    {
      route: "GET /logos/<tenantId>/<logoId>",
      ask: (id) => fetch(`${BASE_URL}/logos/${a.id}/${id}`),
      theirs: [t.logo.id],
      status: 404,
    },
    // Job photos (issue 21): the upload names a job and a photo, the image route both.
    {
      route: "PUT /api/field/jobs/<id>/photos/<photoId>",
      ask: (id) => putPhoto(office, id, randomUUID(), photoBytes, { takenAt }),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "PUT /api/field/jobs/<id>/photos/<photoId> (technician)",
      ask: (id) => putPhoto(tech, id, randomUUID(), photoBytes, { takenAt }),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "POST /field/photos (jobId, no JavaScript)",
      ask: (id) => {
        const form = new FormData();
        form.set("jobId", id);
        form.set("photo", new Blob([photoBytes], { type: "image/jpeg" }), "photo.jpg");
        return tech.post("/field/photos", form);
      },
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "GET /jobs/<id>/photos/<photoId>",
      ask: (id) => owner.get(`/jobs/${id}/photos/${ourPhotoId}`),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "GET /jobs/<id>/photos/<photoId> (their job and photo)",
      ask: (id) => owner.get(`/jobs/${id}/photos/${t.photo.id}`),
      theirs: [t.job.id],
      status: 404,
    },
    {
      route: "GET /jobs/<id>/photos/<photoId> (photoId)",
      ask: (id) => owner.get(`/jobs/${ourTechJob.id}/photos/${id}`),
      theirs: [t.photo.id],
      status: 404,
    },
    {
      route: "GET /jobs/<id>/photos/<photoId> (photoId, technician)",
      ask: (id) => tech.get(`/jobs/${ourTechJob.id}/photos/${id}`),
      theirs: [t.photo.id],
      status: 404,
    },
    {
      // Their photo's id on our job is simply a new photo of ours: answered as for any new id
      // (after the GETs above, which would then find our photo under that id).
      route: "PUT /api/field/jobs/<id>/photos/<photoId> (photoId)",
      ask: (id) => putPhoto(tech, ourTechJob.id, id, photoBytes, { takenAt }),
      theirs: [t.photo.id],
      status: 201,
    },
    // The customer portal: our link, their quote or invoice (another tenant's, and another customer's of ours).
    {
      route: "POST /api/portal/quote (quoteId)",
      ask: (id) =>
        portalRequest("POST", "/api/portal/quote", {
          ip,
          form: { token: ours.token, quoteId: id, decision: "approve", signatureName: "Mallory", acceptTerms: "yes" },
        }),
      theirs: [t.quote.id, otherCustomersQuote.id],
      status: 422,
    },
    {
      route: "POST /api/portal/quote decline (quoteId)",
      ask: (id) =>
        portalRequest("POST", "/api/portal/quote", {
          ip,
          form: { token: ours.token, quoteId: id, decision: "decline", reason: "No" },
        }),
      theirs: [t.quote.id, otherCustomersQuote.id],
      status: 422,
    },
    {
      route: "POST /api/portal/invoice-payment (invoiceId)",
      ask: (id) =>
        portalRequest("POST", "/api/portal/invoice-payment", {
          ip,
          form: {
            token: ours.token,
            invoiceId: id,
            amount: "10.00",
            idempotencyKey: randomBytes(16).toString("base64url"),
          },
        }),
      theirs: [t.invoice.id, otherCustomersInvoice.id],
      status: 422,
    },
    {
      route: "GET /portal/<token>/quotes/<id>.pdf",
      ask: (id) => portalRequest("GET", `/portal/${ours.token}/quotes/${id}.pdf`, { ip }),
      theirs: [t.quote.id, otherCustomersQuote.id],
      status: 404,
    },
    {
      route: "GET /portal/<token>/invoices/<id>.pdf",
      ask: (id) => portalRequest("GET", `/portal/${ours.token}/invoices/${id}.pdf`, { ip }),
      theirs: [t.invoice.id, otherCustomersInvoice.id],
      status: 404,
    },
    {
      route: "GET /portal/<token>/invoices/<id>/receipts/<paymentId>.pdf",
      ask: (id) => portalRequest("GET", `/portal/${ours.token}/invoices/${id}/receipts/${randomUUID()}.pdf`, { ip }),
      theirs: [t.invoice.id, otherCustomersInvoice.id],
      status: 404,
    },
    // Ids inside tokens: a correctly signed portal token pairing our tenant with their link,
    // and an invite token pairing our tenant with their invite's secret.
    {
      route: "GET /portal/<token> (our tenant, their link id)",
      ask: (token) => portalRequest("GET", `/portal/${token}`, { ip }),
      theirs: [signPortalToken(a.id, t.portal.linkId)],
      missing: () => signPortalToken(a.id, randomUUID()),
      status: 404,
    },
    {
      route: "POST /api/portal/booking-request (our tenant, their link id)",
      ask: (token) =>
        portalRequest("POST", "/api/portal/booking-request", {
          ip,
          form: { token, service: "Leak", timeWindow: "any" },
        }),
      theirs: [signPortalToken(a.id, t.portal.linkId)],
      missing: () => signPortalToken(a.id, randomUUID()),
      status: 404,
    },
    {
      route: "GET /unsubscribe/<token> (our tenant, their customer id)",
      ask: (token) => portalRequest("GET", `/unsubscribe/${token}`, { ip }),
      theirs: [signIdToken("unsubscribe", a.id, t.customer.id)],
      missing: () => signIdToken("unsubscribe", a.id, randomUUID()),
      status: 404,
    },
    {
      route: "POST /unsubscribe/<token> (our tenant, their customer id)",
      ask: (token) => owner.post(`/unsubscribe/${token}`, {}),
      theirs: [signIdToken("unsubscribe", a.id, t.customer.id)],
      missing: () => signIdToken("unsubscribe", a.id, randomUUID()),
      status: 404,
    },
    {
      route: "GET /invite/<token> (our tenant, their secret)",
      ask: (token) => owner.get(`/invite/${token}`),
      theirs: [`${aPrefix}.${t.inviteSecret}`],
      missing: () => `${aPrefix}.${randomBytes(32).toString("base64url")}`,
      status: 404,
    },
    {
      route: "POST /invite/<token> (our tenant, their secret)",
      ask: async (token) =>
        (await clientFor(a.users.admin)).post(`/invite/${token}`, { password: "a brand new password" }),
      theirs: [`${aPrefix}.${t.inviteSecret}`],
      missing: () => `${aPrefix}.${randomBytes(32).toString("base64url")}`,
      status: 404,
    },
  ];

  // The table names every route whose path takes an id or a token.
  const pathRoutes = fs.readdirSync(path.resolve("app/routes")).filter((f) => /\$(id|token)/.test(f));
  for (const file of pathRoutes) {
    // `$id[.pdf]` is the segment `<id>.pdf` (an escaped dot in a flat route name).
    const url = `/${file
      .replace(/\.tsx?$/, "")
      .replace(/\[\.(\w+)\]/g, "~$1")
      .replace(/_(?=\.|~|$)/g, "")
      .split(".")
      .map((p) => (p.startsWith("$") ? `<${p.slice(1)}>` : p).replace(/^<(\w+)~(\w+)>$/, "<$1>.$2"))
      .join("/")}`;
    assert.ok(
      cases.some((c) => c.route.includes(` ${url}`)),
      `${file} (${url}) has no case`,
    );
  }

  const before = await fingerprint(b.id);
  const problems: string[] = [];
  for (const c of cases) {
    const missingId = (c.missing ?? randomUUID)();
    const expected = await answer(await c.ask(missingId), missingId);
    if (expected.status !== c.status)
      problems.push(`${c.route}: a missing id answers ${expected.status}, expected ${c.status}`);
    for (const id of c.theirs) {
      const got = await answer(await c.ask(id), id);
      try {
        assert.deepEqual(got, expected);
      } catch {
        problems.push(
          `${c.route}: their id answers ${JSON.stringify(got).slice(0, 600)}\n  a missing id answers ${JSON.stringify(expected).slice(0, 600)}`,
        );
      }
      // Nothing of theirs shows through, whatever the answer.
      for (const secret of [
        "Ines Theirs",
        "Their boiler service",
        "Their request",
        "Theo Theirs",
        "Ivy Imported",
        "Ian Pending",
        "Una Uploaded",
        "Ines Portal",
        t.quote.number,
        t.invoice.number,
      ]) {
        if (got.body.includes(secret)) problems.push(`${c.route}: shows ${secret}`);
      }
    }
  }
  assert.deepEqual(problems, [], "routes that tell another tenant's id from a missing one");
  assert.deepEqual(await fingerprint(b.id), before, "another tenant's rows are unchanged");
  // Ours too: the portal forms with others' ids recorded nothing.
  assert.equal(
    (await one<{ n: number }>(`SELECT count(*)::int AS n FROM payments WHERE tenant_id = $1`, [a.id]))!.n,
    0,
  );
  assert.equal(
    (await one<{ status: string }>(`SELECT status FROM quotes WHERE tenant_id = $1 AND id = $2`, [
      a.id,
      otherCustomersQuote.id,
    ]))!.status,
    "sent",
  );
});
