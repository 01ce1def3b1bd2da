/**
 * Issue 21's photo figure: "200 photos of 500 KB uploaded by 20 devices at once land once each,
 * and the upload of one takes <= 200 ms on loopback" (docs/decisions/218).
 *
 * 20 technicians, each signed in on their own device with a job; each device uploads 10 photos
 * of 500 KB one after the other (`PUT /api/field/jobs/<job>/photos/<id>`), all 20 at once, and
 * sends one photo in ten a second time (a retry after a lost answer). Then the database must
 * hold each photo exactly once, byte for byte. The single-upload time is measured apart, one
 * upload at a time on the quiet server (the figure the goal names), and under the load beside it.
 * `BENCH_ONLY=PHOTOS npm run bench` runs this figure alone (writes bench/results/photos.json).
 */
import { createHash, randomUUID } from "node:crypto";
import { rows } from "../db/index";
import { createCustomer, createJob, createTenant, createUser, DEFAULT_PASSWORD } from "../scripts/seeds/factories";
import { Client } from "../tests/helpers/client";
import { jpegLike, putPhoto } from "../tests/helpers/photos";
import { figure, round, type Figure } from "./lib";

const DEVICES = Number(process.env.BENCH_PHOTO_DEVICES ?? 20);
const PER_DEVICE = Number(process.env.BENCH_PHOTOS_PER_DEVICE ?? 10);
const SIZE = 500 * 1024;
const ALONE = 20;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function timedPut(
  client: Client,
  jobId: string,
  id: string,
  bytes: Buffer,
): Promise<{ ms: number; status: number }> {
  const t0 = performance.now();
  const res = await putPhoto(client, jobId, id, bytes);
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

export async function benchPhotos(baseUrl: string): Promise<Figure[]> {
  const tenant = await createTenant(`Bench photos ${randomUUID().slice(0, 8)}`);
  const customer = await createCustomer(tenant.id);
  const devices: Array<{ client: Client; jobId: string; photos: Array<{ id: string; bytes: Buffer }> }> = [];
  for (let d = 0; d < DEVICES; d++) {
    const user = await createUser(tenant.id, { role: "technician" });
    const job = await createJob(tenant.id, { customerId: customer.id, assigneeId: user.id });
    const client = new Client(baseUrl);
    const login = await client.post("/login", { email: user.email, password: DEFAULT_PASSWORD });
    if (login.status !== 303) throw new Error(`bench sign-in failed: ${login.status}`);
    devices.push({
      client,
      jobId: job.id,
      photos: Array.from({ length: PER_DEVICE }, () => ({ id: randomUUID(), bytes: jpegLike(SIZE) })),
    });
  }

  // One at a time, on a quiet server: what one upload costs (after two to warm up).
  const aloneJob = await createJob(tenant.id, { customerId: customer.id, assigneeId: null });
  const office = new Client(baseUrl);
  const officeUser = await createUser(tenant.id, { role: "office" });
  if ((await office.post("/login", { email: officeUser.email, password: DEFAULT_PASSWORD })).status !== 303)
    throw new Error("bench sign-in failed");
  const alone: number[] = [];
  for (let i = 0; i < ALONE + 2; i++) {
    const r = await timedPut(office, aloneJob.id, randomUUID(), jpegLike(SIZE));
    if (r.status !== 201) throw new Error(`a single upload answered ${r.status}`);
    if (i >= 2) alone.push(r.ms);
  }
  alone.sort((a, b) => a - b);

  // 20 devices at once.
  const statuses = new Map<number, number>();
  const loaded: number[] = [];
  const started = performance.now();
  await Promise.all(
    devices.map(async (d) => {
      for (const [i, p] of d.photos.entries()) {
        const r = await timedPut(d.client, d.jobId, p.id, p.bytes);
        loaded.push(r.ms);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        // A retry of a stored photo (its answer lost on the way back): must answer 200 and store nothing.
        if (i % 10 === 3) {
          const again = await timedPut(d.client, d.jobId, p.id, p.bytes);
          statuses.set(again.status, (statuses.get(again.status) ?? 0) + 1);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  loaded.sort((a, b) => a - b);

  const expected = new Map(
    devices.flatMap((d) => d.photos.map((p) => [p.id, createHash("sha256").update(p.bytes).digest("hex")] as const)),
  );
  const stored = await rows<{ id: string; sha256: string; n: number }>(
    `SELECT id, sha256, count(*) OVER (PARTITION BY id)::int AS n FROM job_photos WHERE tenant_id = $1 AND job_id <> $2`,
    [tenant.id, aloneJob.id],
  );
  const lost = [...expected.keys()].filter((id) => !stored.some((s) => s.id === id)).length;
  const doubled = stored.filter((s) => s.n > 1).length;
  const wrong = stored.filter((s) => expected.get(s.id) !== s.sha256).length;
  const total = DEVICES * PER_DEVICE;
  const retries = DEVICES * Math.ceil((PER_DEVICE - 3) / 10);
  const detail = [...statuses].map(([s, n]) => `${n}×${s}`).join(", ");
  console.log(
    `  photos: ${total} of ${SIZE / 1024} KB by ${DEVICES} devices in ${round(seconds)} s (${detail}); ${retries} retries`,
  );
  return [
    figure(
      "photos: one 500 KB upload alone, median",
      quantile(alone, 0.5),
      "ms",
      "<= 200",
      quantile(alone, 0.5) <= 200,
    ),
    figure("photos: one 500 KB upload alone, slowest of 20", alone[alone.length - 1], "ms", "measured", null),
    figure(`photos: ${total} by ${DEVICES} devices at once, wall time`, seconds, "s", "measured", null),
    figure("photos: uploads per second under that load", total / seconds, "photos/s", "measured", null),
    figure("photos: one upload under that load, median", quantile(loaded, 0.5), "ms", "measured", null),
    figure("photos: one upload under that load, p95", quantile(loaded, 0.95), "ms", "measured", null),
    figure(
      "photos: landed once each (stored / expected)",
      stored.length - doubled,
      `of ${total}`,
      `= ${total}`,
      stored.length === total && lost === 0,
    ),
    figure("photos: lost", lost, "photos", "= 0", lost === 0),
    figure("photos: doubled", doubled, "photos", "= 0", doubled === 0),
    figure("photos: bytes differ from what was sent", wrong, "photos", "= 0", wrong === 0),
    figure(
      "photos: retries answered 200 (stored nothing)",
      statuses.get(200) ?? 0,
      `of ${retries}`,
      `= ${retries}`,
      (statuses.get(200) ?? 0) === retries,
    ),
  ];
}
