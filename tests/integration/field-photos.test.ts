// Job photos from the field (issue 21 point 2, docs/decisions/216): the idempotent PUT keyed by
// the photo's id, its limit and checks, and the office's view of the photos.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { one, rows } from "../../db/index";
import { Client, clientFor, envelope } from "../helpers/client";
import { createCustomer, createJob, createTenantWithUsers, createUser } from "../helpers/fixtures";
import { textOf } from "../helpers/html";
import { jpegLike, putPhoto, testPng } from "../helpers/photos";

const MiB = 1024 * 1024;

async function field() {
  const t = await createTenantWithUsers();
  const customer = await createCustomer(t.id);
  const job = await createJob(t.id, {
    customerId: customer.id,
    title: "Replace the water heater",
    assigneeId: t.users.technician.id,
  });
  return { t, job, tech: await clientFor(t.users.technician) };
}

const stored = (tenantId: string, id: string) =>
  rows<{ job_id: string; taken_by: string; content_type: string; byte_size: number; bytes: Buffer; taken_at: Date }>(
    `SELECT job_id, taken_by, content_type, byte_size, bytes, taken_at FROM job_photos WHERE tenant_id = $1 AND id = $2`,
    [tenantId, id],
  );
/** A recent time, whole seconds, as the device would send it: an hour ago. */
const anHourAgo = () => new Date(Math.floor(Date.now() / 1000) * 1000 - 3600_000).toISOString();

const count = async (tenantId: string) =>
  (await one<{ n: number }>(`SELECT count(*)::int AS n FROM job_photos WHERE tenant_id = $1`, [tenantId]))!.n;

test("the first PUT stores the photo (201); a retry of the same photo answers 200 and stores nothing more", async () => {
  const { t, job, tech } = await field();
  const id = randomUUID();
  const photo = jpegLike(500 * 1024);
  const takenAt = anHourAgo();
  const first = await putPhoto(tech, job.id, id, photo, { takenAt });
  assert.equal(first.status, 201);
  const body = await envelope(first);
  assert.equal(body.success, true);
  assert.deepEqual(
    {
      id: body.data.id,
      jobId: body.data.jobId,
      status: body.data.status,
      byteSize: body.data.byteSize,
      contentType: body.data.contentType,
      takenAt: body.data.takenAt,
    },
    { id, jobId: job.id, status: "created", byteSize: photo.length, contentType: "image/jpeg", takenAt },
  );
  const again = await putPhoto(tech, job.id, id, photo, { takenAt });
  assert.equal(again.status, 200);
  assert.equal((await envelope(again)).data.status, "duplicate");
  const [row, ...more] = await stored(t.id, id);
  assert.equal(more.length, 0);
  assert.equal(row.job_id, job.id);
  assert.equal(row.taken_by, t.users.technician.id);
  assert.equal(row.taken_at.toISOString(), takenAt);
  assert.ok(Buffer.from(row.bytes).equals(photo), "the bytes are stored as sent");
  assert.equal(await count(t.id), 1);
});

test("two tabs sending the same photo at once store it once: one 201, the others 200", async () => {
  const { t, job, tech } = await field();
  const id = randomUUID();
  const photo = jpegLike(300 * 1024);
  const other = await clientFor(t.users.technician);
  const answers = await Promise.all([
    putPhoto(tech, job.id, id, photo),
    putPhoto(other, job.id, id, photo),
    putPhoto(tech, job.id, id, photo),
    putPhoto(other, job.id, id, photo),
  ]);
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 201]);
  assert.equal(await count(t.id), 1);
});

test("another photo under an id already used is a conflict (409) and the stored photo stays", async () => {
  const { t, job, tech } = await field();
  const id = randomUUID();
  const photo = jpegLike(1000);
  assert.equal((await putPhoto(tech, job.id, id, photo)).status, 201);
  const res = await putPhoto(tech, job.id, id, jpegLike(1000));
  assert.equal(res.status, 409);
  assert.equal((await envelope(res)).error!.code, "CONFLICT");
  // The same bytes named for another job are another photo too.
  const job2 = await createJob(t.id, {
    customerId: (await createCustomer(t.id)).id,
    assigneeId: t.users.technician.id,
  });
  assert.equal((await putPhoto(tech, job2.id, id, photo)).status, 409);
  const [row] = await stored(t.id, id);
  assert.ok(Buffer.from(row.bytes).equals(photo));
  assert.equal(await count(t.id), 1);
});

test("a photo over 5 MiB is 413 in the contract's format and nothing is stored (declared length or streamed)", async () => {
  const { t, job, tech } = await field();
  const exactly = jpegLike(5 * MiB);
  assert.equal((await putPhoto(tech, job.id, randomUUID(), exactly)).status, 201, "5 MiB itself is accepted");

  const declared = await putPhoto(tech, job.id, randomUUID(), jpegLike(5 * MiB + 1));
  assert.equal(declared.status, 413);
  const e = await envelope(declared);
  assert.equal(e.success, false);
  assert.equal(e.error!.code, "PAYLOAD_TOO_LARGE");
  assert.deepEqual(e.error!.fields, {});
  assert.match(e.error!.message, /5 MiB/);
  assert.ok(e.meta.requestId);

  // No Content-Length (chunked): the read stops past the limit.
  const big = jpegLike(6 * MiB);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= big.length) return controller.close();
      const part = big.subarray(sent, sent + 256 * 1024);
      sent += part.length;
      controller.enqueue(new Uint8Array(part));
    },
  });
  const streamed = await putPhoto(tech, job.id, randomUUID(), stream);
  assert.equal(streamed.status, 413);
  assert.equal((await envelope(streamed)).error!.code, "PAYLOAD_TOO_LARGE");
  assert.equal(await count(t.id), 1, "only the 5 MiB photo");
});

test("another technician's job answers exactly as an unknown job (404, same body); nothing is stored", async () => {
  const { t, job } = await field();
  const other = await createUser(t.id, { role: "technician" });
  const res = await putPhoto(await clientFor(other), job.id, randomUUID(), jpegLike(2000));
  const unknown = await putPhoto(await clientFor(other), randomUUID(), randomUUID(), jpegLike(2000));
  assert.equal(res.status, 404);
  assert.equal(unknown.status, 404);
  const [mine, missing] = [(await envelope(res)).error, (await envelope(unknown)).error];
  assert.deepEqual(mine, missing, "the same code and message: the answer does not tell that the job exists");
  assert.equal(missing!.code, "NOT_FOUND");
  // The office may add a photo to any job of the tenant (as with the sync mutations).
  assert.equal((await putPhoto(await clientFor(t.users.office), job.id, randomUUID(), jpegLike(2000))).status, 201);
  assert.equal(await count(t.id), 1);
});

test("only JPEG, PNG and WebP, checked by their bytes; bad parameters, no session and cross-site are refused", async () => {
  const { t, job, tech } = await field();
  const cases: Array<[string, Response, number, string]> = [
    [
      "text declared",
      await putPhoto(tech, job.id, randomUUID(), jpegLike(100), { type: "text/plain" }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    [
      "PNG declared, JPEG sent",
      await putPhoto(tech, job.id, randomUUID(), jpegLike(100), { type: "image/png" }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    [
      "HTML as JPEG",
      await putPhoto(tech, job.id, randomUUID(), Buffer.from("<html><script>alert(1)</script>"), {
        type: "image/jpeg",
      }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    ["empty", await putPhoto(tech, job.id, randomUUID(), Buffer.alloc(0)), 422, "VALIDATION_FAILED"],
    ["photo id not a UUID", await putPhoto(tech, job.id, "not-a-uuid", jpegLike(100)), 422, "VALIDATION_FAILED"],
    [
      "takenAt missing",
      await putPhoto(tech, job.id, randomUUID(), jpegLike(100), { takenAt: "yesterday" }),
      422,
      "VALIDATION_FAILED",
    ],
    ["no session", await putPhoto(new Client(), job.id, randomUUID(), jpegLike(100)), 401, "UNAUTHENTICATED"],
    [
      "cross-site",
      await putPhoto(tech, job.id, randomUUID(), jpegLike(100), { headers: { origin: "https://evil.example" } }),
      403,
      "CSRF_INVALID",
    ],
  ];
  for (const [what, res, status, code] of cases) {
    assert.equal(res.status, status, what);
    assert.equal((await envelope(res)).error!.code, code, what);
  }
  const post = await tech.request("POST", `/api/field/jobs/${job.id}/photos/${randomUUID()}`, { body: "x" });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "PUT");
  const png = testPng(40, 30, [200, 80, 20]);
  assert.equal((await putPhoto(tech, job.id, randomUUID(), png, { type: "image/png" })).status, 201);
  const webp = Buffer.concat([
    Buffer.from("RIFF"),
    Buffer.from([0, 1, 0, 0]),
    Buffer.from("WEBPVP8 "),
    Buffer.alloc(64),
  ]);
  assert.equal((await putPhoto(tech, job.id, randomUUID(), webp, { type: "image/webp" })).status, 201);
  assert.equal(await count(t.id), 2);
});

test("the job page shows the photos with time and who took them; the full image is served with cache headers to those who may see the job", async () => {
  const { t, job, tech } = await field();
  const png = testPng(64, 48, [20, 120, 220]);
  const id = randomUUID();
  assert.equal((await putPhoto(tech, job.id, id, png, { type: "image/png", takenAt: anHourAgo() })).status, 201);
  const office = await clientFor(t.users.office);
  const page = await office.get(`/jobs/${job.id}`);
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.ok(html.includes(`href="/jobs/${job.id}/photos/${id}"`), "links to the full image");
  assert.match(textOf(html), new RegExp(`Photos\\s*1 photo`));
  assert.ok(textOf(html).includes(t.users.technician.name), "says who took it");

  const img = await office.get(`/jobs/${job.id}/photos/${id}`);
  assert.equal(img.status, 200);
  assert.equal(img.headers.get("content-type"), "image/png");
  assert.match(img.headers.get("cache-control") ?? "", /private.*immutable/);
  assert.equal(img.headers.get("x-content-type-options"), "nosniff");
  assert.ok(Buffer.from(await img.arrayBuffer()).equals(png));
  const etag = img.headers.get("etag")!;
  assert.equal((await office.get(`/jobs/${job.id}/photos/${id}`, { "if-none-match": etag })).status, 304);

  // The technician of the job sees it; another technician does not (as the job itself).
  assert.equal((await tech.get(`/jobs/${job.id}/photos/${id}`)).status, 200);
  const other = await clientFor(await createUser(t.id, { role: "technician" }));
  assert.equal((await other.get(`/jobs/${job.id}/photos/${id}`)).status, 404);
  // The photo under another job's path is not found.
  const job2 = await createJob(t.id, { customerId: (await createCustomer(t.id)).id });
  assert.equal((await office.get(`/jobs/${job2.id}/photos/${id}`)).status, 404);
  // Signed out: to the sign-in page.
  const anon = await new Client().get(`/jobs/${job.id}/photos/${id}`);
  assert.equal(anon.status, 302);
});

test("without JavaScript: POST /field/photos stores the photo (303 back to the card); over 5 MiB is a 413 page; no token, not a photo or another's job stores nothing", async () => {
  const { t, job, tech } = await field();
  const form = (bytes: Buffer, type = "image/jpeg", jobId = job.id) => {
    const f = new FormData();
    f.set("jobId", jobId);
    f.set("photo", new Blob([new Uint8Array(bytes)], { type }), "photo");
    return f;
  };
  const ok = await tech.post("/field/photos", form(testPng(32, 24, [1, 2, 3]), "image/png"));
  assert.equal(ok.status, 303);
  assert.equal(ok.headers.get("location"), `/field#job-${job.id}`);
  assert.equal(await count(t.id), 1);

  const big = await tech.post("/field/photos", form(jpegLike(5 * MiB + 10)));
  assert.equal(big.status, 413);
  assert.match(textOf(await big.text()), /The photo is too large.*larger than 5 MiB/);
  const text = await tech.post("/field/photos", form(Buffer.from("just some text"), "text/plain"));
  assert.equal(text.status, 415);
  const noToken = await tech.post("/field/photos", form(jpegLike(1000)), { csrf: false });
  assert.equal(noToken.status, 403);
  const other = await clientFor(await createUser(t.id, { role: "technician" }));
  const notTheirs = await other.post("/field/photos", form(jpegLike(1000)));
  const unknownJob = await other.post("/field/photos", form(jpegLike(1000), "image/jpeg", randomUUID()));
  assert.equal(notTheirs.status, 404);
  assert.equal(unknownJob.status, 404);
  assert.equal(textOf(await notTheirs.text()), textOf(await unknownJob.text()), "the same page as an unknown job");
  assert.equal(await count(t.id), 1, "only the first photo");
});

test("takenAt: more than a day ahead or more than 30 days before the job existed is 422 and stores nothing; a little ahead is now", async () => {
  const { t, job, tech } = await field();
  const day = 86_400_000;
  const refused = [
    "9999-12-31T23:59:59Z",
    new Date(Date.now() + day + 10 * 60_000).toISOString(),
    "1970-01-01T00:00:00Z",
    new Date(Date.now() - 31 * day).toISOString(),
  ];
  for (const takenAt of refused) {
    const res = await putPhoto(tech, job.id, randomUUID(), jpegLike(1000), { takenAt });
    assert.equal(res.status, 422, takenAt);
    const body = await envelope(res);
    assert.equal(body.error!.code, "VALIDATION_FAILED", takenAt);
    assert.ok(body.error!.fields?.takenAt?.length, `the takenAt field is named (${takenAt})`);
  }
  assert.equal(await count(t.id), 0, "nothing stored");
  // Within the margin: a gallery photo from 29 days before the job, and a device clock an hour ahead.
  const old = randomUUID();
  const oldAt = new Date(Date.now() - 29 * day).toISOString();
  assert.equal((await putPhoto(tech, job.id, old, jpegLike(1000), { takenAt: oldAt })).status, 201);
  assert.equal((await stored(t.id, old))[0].taken_at.toISOString(), oldAt);
  const ahead = randomUUID();
  const before = Date.now();
  const aheadAt = new Date(Date.now() + 3600_000).toISOString();
  assert.equal((await putPhoto(tech, job.id, ahead, jpegLike(1000), { takenAt: aheadAt })).status, 201);
  const storedAt = (await stored(t.id, ahead))[0].taken_at.getTime();
  assert.ok(storedAt >= before && storedAt <= Date.now(), "an hour ahead is stored as the server's now");
  // A job scheduled (or imported) for a date before it was entered: the margin counts from that date.
  const past = await createJob(t.id, {
    customerId: (await createCustomer(t.id)).id,
    assigneeId: t.users.technician.id,
    scheduledStart: new Date(Date.now() - 60 * day),
  });
  const pastAt = new Date(Date.now() - 80 * day).toISOString();
  assert.equal((await putPhoto(tech, past.id, randomUUID(), jpegLike(1000), { takenAt: pastAt })).status, 201);
});
