// The outbox's worker (docs/decisions/141): one inside each app server. It claims due rows
// with FOR UPDATE SKIP LOCKED (app_messages_claim, migration 0050) and commits the claim
// before it speaks SMTP, so no two workers ever hold one row; it sends each with the row's own
// Message-ID, then marks it sent with the SMTP server's answer, or puts it back with a
// doubling wait (a 5xx refusal, or the last try, fails it for good). On SIGTERM it takes no new
// rows and finishes the ones it holds before the process ends.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import nodemailer, { type Transporter } from "nodemailer";
import { one, rows } from "../../../db/index";
import { env, type Env } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import { mailFrom, mailMode } from "./config.server";
import { withLink } from "./links.server";

export type WorkerOptions = {
  smtpUrl: string;
  pollMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  leaseMs: number;
  connections: number;
  batch: number;
};

type Claimed = {
  tenant_id: string;
  id: string;
  attempts: number;
  to_address: string;
  to_name: string | null;
  reply_to: string | null;
  from_name: string;
  subject: string;
  text_body: string;
  html_body: string;
  message_id: string;
  link_ref: string | null;
  list_unsubscribe: string | null;
};

const HOUR = 3_600_000;

/** The wait before try n + 1 after n failed tries: base, 2 x base, 4 x base... at most an hour, with a little jitter. */
export const retryDelay = (base: number, attempts: number) =>
  Math.min(HOUR, base * 2 ** Math.max(0, attempts - 1)) * (1 + Math.random() * 0.1);

export class MessageWorker {
  readonly server = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly transport: Transporter;
  private stopping = false;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private loop: Promise<void> = Promise.resolve();
  /** Counts, for logs and tests. */
  readonly figures = { sent: 0, retried: 0, failed: 0, lostMarks: 0 };

  constructor(private readonly opts: WorkerOptions) {
    this.transport = nodemailer.createTransport({
      url: opts.smtpUrl,
      pool: true,
      maxConnections: opts.connections,
      maxMessages: 10_000,
      // A stalled server ends the try well before the lease does (the lease is the only other
      // way a held row goes back).
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: Math.max(1_000, Math.min(60_000, Math.floor(opts.leaseMs / 2))),
    });
  }

  start() {
    this.loop = this.run();
    return this;
  }

  /** A message was queued by this server: look now instead of at the next poll. */
  wake() {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Takes no new rows, finishes (sends and marks) the ones it holds, closes the SMTP pool. */
  async stop() {
    this.stopping = true;
    this.wakeUp?.();
    await this.loop;
    this.transport.close();
  }

  private sleep(ms: number) {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref?.();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        this.woken = false;
        done();
      };
    });
  }

  private async run() {
    while (!this.stopping) {
      let claimed = 0;
      try {
        claimed = await this.runBatch();
      } catch (error) {
        log.error("messages: a batch failed", { error: String(error) });
      }
      if (!this.stopping && claimed < this.opts.batch) await this.sleep(claimed ? 0 : this.opts.pollMs);
    }
  }

  /** Claims up to a batch of due rows and delivers them; how many it claimed. */
  async runBatch(): Promise<number> {
    const claimed = await rows<Claimed>(`SELECT * FROM app_messages_claim($1, $2, $3)`, [
      this.server,
      this.opts.batch,
      this.opts.leaseMs,
    ]);
    // One lane per SMTP connection takes the next row; once the worker is stopping, the lanes
    // take no more and the rows never handed to the SMTP server go back to the queue.
    let next = 0;
    const lane = async () => {
      while (next < claimed.length && !this.stopping) await this.deliver(claimed[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(claimed.length, this.opts.connections) }, lane));
    for (const m of claimed.slice(next)) {
      await one(`SELECT app_messages_release($1, $2, $3, $4)`, [m.tenant_id, m.id, this.server, m.attempts]).catch(
        (error) => log.error("messages: could not hand a message back", { id: m.id, error: String(error) }),
      );
    }
    return claimed.length;
  }

  private async deliver(m: Claimed) {
    const from = mailFrom();
    const text = withLink(m.text_body, m.tenant_id, m.link_ref);
    const html = withLink(m.html_body, m.tenant_id, m.link_ref);
    if (text === null || html === null) {
      // Sealed with a secret no longer in SESSION_SECRET: it can never be opened.
      await this.failed(
        { ...m, attempts: this.opts.maxAttempts },
        new Error("The message's link can no longer be opened (SESSION_SECRET changed)."),
        m.attempts,
      );
      return;
    }
    let response: string;
    try {
      const info = await this.transport.sendMail({
        from: { name: m.from_name, address: from.address },
        to: m.to_name ? { name: m.to_name, address: m.to_address } : m.to_address,
        replyTo: m.reply_to ?? undefined,
        subject: m.subject,
        text,
        html,
        messageId: m.message_id,
        headers: {
          "Auto-Submitted": "auto-generated",
          // A reminder: one-click unsubscribe (RFC 8058), which large mailbox providers require
          // of bulk senders; their POST to the URL turns the customer's reminders off.
          ...(m.list_unsubscribe
            ? {
                "List-Unsubscribe": `<${m.list_unsubscribe}>`,
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
              }
            : {}),
        },
      });
      response = String(info.response ?? "accepted");
    } catch (error) {
      await this.failed(m, error as Error & { responseCode?: number; response?: string });
      return;
    }
    // The fault tests' "server killed between the SMTP answer and the mark" (never in production).
    if (env().NODE_ENV !== "production" && env().FAULTS.includes("messages.crash-after-send"))
      process.kill(process.pid, "SIGKILL");
    // Accepted. A crash before this mark leaves the row `sending` until its lease ends; it is
    // then sent again with the same Message-ID (docs/decisions/141 says what that promises).
    try {
      const marked = await one<{ ok: boolean }>(`SELECT app_messages_sent($1, $2, $3, $4, $5) AS ok`, [
        m.tenant_id,
        m.id,
        this.server,
        m.attempts,
        response,
      ]);
      if (marked?.ok) this.figures.sent++;
      else this.figures.lostMarks++;
    } catch (error) {
      this.figures.lostMarks++;
      log.error("messages: sent but not marked", { id: m.id, error: String(error) });
    }
  }

  private async failed(m: Claimed, error: Error & { responseCode?: number; response?: string }, attempt = m.attempts) {
    const permanent = typeof error.responseCode === "number" && error.responseCode >= 500 && error.responseCode < 600;
    const final = permanent || m.attempts >= this.opts.maxAttempts;
    const what = error.response ?? error.message;
    if (final) this.figures.failed++;
    else this.figures.retried++;
    log.info("messages: not delivered", { id: m.id, attempt: m.attempts, final, error: what });
    try {
      await one(`SELECT app_messages_retry($1, $2, $3, $4, $5, $6, $7)`, [
        m.tenant_id,
        m.id,
        this.server,
        attempt,
        what,
        Math.round(retryDelay(this.opts.retryBaseMs, m.attempts)),
        final,
      ]);
    } catch (markError) {
      log.error("messages: could not put a message back", { id: m.id, error: String(markError) });
    }
  }
}

export function workerOptions(): WorkerOptions | null {
  const e = env();
  if (!e.SMTP_URL) return null;
  return {
    smtpUrl: e.SMTP_URL,
    pollMs: e.MAIL_POLL_MS,
    retryBaseMs: e.MAIL_RETRY_BASE_MS,
    maxAttempts: e.MAIL_MAX_ATTEMPTS,
    leaseMs: e.MAIL_LEASE_MS,
    connections: e.MAIL_CONNECTIONS,
    batch: e.MAIL_BATCH,
  };
}

/**
 * Starts this server's worker (once per process) when SMTP_URL is set (MAIL_WORKER=off keeps
 * it from running here). It stops with the process: scripts/serve-hooks.mjs runs the stop
 * hooks on SIGTERM before it exits.
 */
export function startMessageWorker(source: Partial<Pick<Env, "MAIL_WORKER">> = env()) {
  const g = globalThis as {
    __messageWorker?: MessageWorker;
    __messagesWake?: () => void;
    __stopHooks?: Set<() => Promise<void>>;
  };
  if (g.__messageWorker || source.MAIL_WORKER === "off" || mailMode() !== "smtp") return;
  const options = workerOptions();
  if (!options) return;
  const worker = new MessageWorker(options).start();
  g.__messageWorker = worker;
  g.__messagesWake = () => worker.wake();
  (g.__stopHooks ??= new Set()).add(() => worker.stop());
}
