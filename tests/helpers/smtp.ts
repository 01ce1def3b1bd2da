import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { freePort } from "../../db/embedded";

export type Received = {
  messageId: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  from: string;
  replyTo: string;
  headers: ParsedMail["headers"];
  /** Every header as it was written ("List-Unsubscribe-Post: List-Unsubscribe=One-Click"). */
  headerLines: string[];
};

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps what arrives, parsed
 * with mailparser. `refuse(n, code)` answers the next n messages with an SMTP error instead.
 */
export class LoopbackSmtp {
  received: Received[] = [];
  private refusals: Array<{ code: number; message: string }> = [];
  private server: SMTPServer;
  port = 0;

  constructor(extra: Partial<SMTPServerOptions> = {}) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      size: 10 * 1024 * 1024,
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", async () => {
          const refusal = this.refusals.shift();
          if (refusal) {
            const error = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
            return callback(error);
          }
          try {
            const mail = await simpleParser(Buffer.concat(chunks));
            const addresses = (a: ParsedMail["to"]) =>
              (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value.map((v) => v.address ?? ""));
            this.received.push({
              messageId: mail.messageId ?? "",
              to: addresses(mail.to),
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              html: typeof mail.html === "string" ? mail.html : "",
              from: mail.from?.text ?? "",
              replyTo: mail.replyTo?.text ?? "",
              headers: mail.headers,
              headerLines: mail.headerLines.map((h) => h.line),
            });
            callback(null, `Queued as ${this.received.length}`);
          } catch (error) {
            callback(error as Error);
          }
        });
      },
      ...extra,
    });
  }

  async start(port?: number) {
    this.port = port ?? (await freePort());
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.port, "127.0.0.1", () => resolve());
    });
    return this;
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  refuse(n: number, code = 451, message = "4.3.0 Try again later") {
    for (let i = 0; i < n; i++) this.refusals.push({ code, message });
  }

  /** What arrived for these Message-IDs (or to this address). */
  matching(filter: (m: Received) => boolean) {
    return this.received.filter(filter);
  }

  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls until `check` returns a truthy value (a bounded wait: the test fails with `what` after `ms`). */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  ms = 30_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
