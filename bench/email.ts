/**
 * BENCHMARKS.md part two: "2,000 queued e-mails to the loopback SMTP server, two app servers:
 * >= 200 per second, 0 lost, 0 doubled" (issue 18, docs/decisions/141).
 *
 * 2,000 messages are written to the outbox not yet due; two production app servers with
 * SMTP_URL pointing at a loopback `smtp-server` start; one UPDATE makes every message due at
 * once, and the clock runs until the SMTP server has accepted the last one. Lost = rows whose
 * Message-ID never arrived; doubled = Message-IDs that arrived more than once.
 * `BENCH_ONLY=MAIL npm run bench` runs this figure alone (writes bench/results/mail.json).
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { freePort } from "../db/embedded";
import { figure, productionServer, round, type Figure } from "./lib";

const COUNT = Number(process.env.BENCH_MAIL_COUNT ?? 2000);
const GOAL = 200;

export async function benchEmail(databaseUrl: string): Promise<Figure[]> {
  const arrivals = new Map<string, number>();
  let last = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      // Only the head is read (the Message-ID): the sink should cost the run as little as it can.
      let head = "";
      stream.on("data", (c: Buffer) => {
        if (head.length < 8192) head += c.toString("latin1");
      });
      stream.on("end", () => {
        const id = /^message-id:\s*(<[^>]+>)/im.exec(head)?.[1] ?? "";
        arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
        last = performance.now();
        callback(null, "Queued");
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", () => resolve()));

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const tenant = (
    await client.query<{ id: string }>(`INSERT INTO tenants (name) VALUES ('Mail Bench Co') RETURNING id`)
  ).rows[0].id;
  const ids = Array.from({ length: COUNT }, () => randomUUID());
  const body = "Hi Ann,\n\nHere is your quote Q-0001 for a water heater: $1,200.00.\n\nThank you,\nMail Bench Co\n";
  const html = `<!DOCTYPE html><html><body><p>Hi Ann,</p><p>Here is your quote Q-0001 for a water heater: <b>$1,200.00</b>.</p><p>Thank you,<br>Mail Bench Co</p></body></html>`;
  await client.query(
    `INSERT INTO messages (tenant_id, id, kind, to_address, from_name, subject, text_body, html_body, message_id, next_attempt_at)
     SELECT $1, id, 'quote_sent', 'customer-' || ord || '@example.test', 'Mail Bench Co', 'Quote Q-' || ord, $3, $4,
            '<' || id || '@bench.test>', now() + interval '1 hour'
       FROM unnest($2::uuid[]) WITH ORDINALITY AS u(id, ord)`,
    [tenant, ids, body, html],
  );
  const mailEnv = {
    DATABASE_URL: databaseUrl,
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: "Mail Bench <no-reply@bench.test>",
    MAIL_POLL_MS: "200",
  };
  const servers = await Promise.all([productionServer(mailEnv), productionServer(mailEnv)]);
  try {
    const load = os.loadavg()[0];
    const started = performance.now();
    await client.query(`UPDATE messages SET next_attempt_at = now() WHERE tenant_id = $1`, [tenant]);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM messages WHERE tenant_id = $1 AND status = 'sent'`,
        [tenant],
      );
      if (rows[0].n >= COUNT || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // A moment for anything sent twice to arrive before counting.
    await new Promise((r) => setTimeout(r, 500));
    const seconds = (last - started) / 1000;
    const wanted = new Set(ids.map((id) => `<${id}@bench.test>`));
    const lost = [...wanted].filter((id) => !arrivals.has(id)).length;
    const doubled = [...arrivals].filter(([id, n]) => wanted.has(id) && n > 1).length;
    const rate = round((COUNT - lost) / seconds, 1);
    console.log(
      `  ${COUNT} e-mails: ${round(seconds, 2)} s, ${rate}/s, ${lost} lost, ${doubled} doubled (load average ${round(load, 1)})`,
    );
    return [
      figure(
        `${COUNT} queued e-mails to the loopback SMTP server, two app servers`,
        rate,
        "messages/s",
        `>= ${GOAL}/s, 0 lost, 0 doubled`,
        rate >= GOAL && lost === 0 && doubled === 0,
      ),
      figure("e-mails lost", lost, "messages", "0", lost === 0),
      figure("e-mails doubled", doubled, "messages", "0", doubled === 0),
    ];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await client.query(`DELETE FROM messages WHERE tenant_id = $1`, [tenant]);
    await client.end();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}
