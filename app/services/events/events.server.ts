// Live updates. A change is announced with pg_notify inside the
// transaction that makes it, so PostgreSQL delivers it at commit (and never for a rollback)
// to every app server LISTENing; each server keeps ONE dedicated connection for that and hands
// each event only to the streams of the event's tenant. docs/decisions/112.
import pg from "pg";
import { dbOptions, one, type Tx } from "../../../db/index";
import { log } from "~/utils/log.server";

export const EVENTS_CHANNEL = "fieldwork_events";

export const LIVE_EVENT_TYPES = [
  "booking_request.received",
  "quote.approved",
  "quote.declined",
  "quote.change_requested",
  "payment.recorded",
  "job.status_changed",
  "job.scheduled",
  "job.photo_added",
  "import.committed",
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** What a change announces: its kind and the record's id (the page reloads its own data). */
export type LiveEvent = { type: LiveEventType; id: string };
export type TenantEvent = LiveEvent & { tenantId: string };

/**
 * Announces a change of the tenant to every app server. Pass the transaction that makes the
 * change: the event is delivered when it commits, and not at all if it rolls back. Without one
 * (a change committed by a stored procedure), it is sent at once.
 */
export async function notify(t: Tx | undefined, tenantId: string, event: LiveEvent): Promise<void> {
  const payload: TenantEvent = { tenantId, type: event.type, id: event.id };
  await one(`SELECT pg_notify($1, $2)`, [EVENTS_CHANNEL, JSON.stringify(payload)], t);
}

type Listener = (event: TenantEvent) => void;

function parse(payload: string | undefined): TenantEvent | null {
  try {
    const e = JSON.parse(payload ?? "") as Partial<TenantEvent>;
    if (
      typeof e.tenantId !== "string" ||
      typeof e.id !== "string" ||
      !LIVE_EVENT_TYPES.includes(e.type as LiveEventType)
    )
      return null;
    return { tenantId: e.tenantId, type: e.type as LiveEventType, id: e.id };
  } catch {
    return null;
  }
}

/** This server's LISTEN connection and the streams of each tenant. */
class LiveEvents {
  private readonly byTenant = new Map<string, Set<Listener>>();
  private client: pg.Client | null = null;
  private connecting = false;
  private retry: NodeJS.Timeout | null = null;

  /** Calls `listener` with each event of `tenantId` (and of no other tenant); returns the unsubscribe. */
  subscribe(tenantId: string, listener: Listener): () => void {
    let set = this.byTenant.get(tenantId);
    if (!set) this.byTenant.set(tenantId, (set = new Set()));
    set.add(listener);
    void this.connect();
    return () => {
      set.delete(listener);
      if (!set.size) this.byTenant.delete(tenantId);
    };
  }

  /** Resolves once this server is LISTENing (tests, and the first stream's wait). */
  async ready(): Promise<void> {
    await this.connect();
    for (let i = 0; i < 100 && !this.client; i++) await new Promise((r) => setTimeout(r, 20));
  }

  private dispatch(payload: string | undefined) {
    const event = parse(payload);
    if (!event) return;
    for (const listener of this.byTenant.get(event.tenantId) ?? []) {
      try {
        listener(event);
      } catch (error) {
        log.error("live event listener failed", { error });
      }
    }
  }

  private async connect(): Promise<void> {
    if (this.client || this.connecting || this.retry) return;
    this.connecting = true;
    // The same database and name as the pool (configureDb); LISTEN needs no role switch.
    const { url, applicationName } = dbOptions();
    const name = applicationName || "fieldservice";
    const client = new pg.Client({
      connectionString: url,
      application_name: `${name}:events`.slice(0, 63),
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
    });
    const lost = () => {
      if (this.client === client) this.client = null;
      client.removeAllListeners("notification");
      client.end().catch(() => {});
      this.scheduleRetry();
    };
    try {
      client.on("notification", (msg) => this.dispatch(msg.payload));
      client.on("error", (error) => {
        log.error("live events connection lost", { error: String(error) });
        lost();
      });
      client.on("end", lost);
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      this.client = client;
    } catch (error) {
      log.error("live events could not listen", { error: String(error) });
      lost();
    } finally {
      this.connecting = false;
    }
  }

  /** Reconnects after a second while any stream is open (e.g. PostgreSQL restarted). */
  private scheduleRetry() {
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.byTenant.size) void this.connect();
    }, 1_000);
    this.retry.unref();
  }
}

declare global {
  var __liveEvents: LiveEvents | undefined;
}

/** The one LiveEvents of this process. */
export function liveEvents(): LiveEvents {
  globalThis.__liveEvents ??= new LiveEvents();
  return globalThis.__liveEvents;
}
