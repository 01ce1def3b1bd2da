// A server's bound on the heavy pages it serves at once, in memory, with a short wait in line
// for a tenant over its share (docs/decisions/470-a-short-wait-for-a-heavy-page-and-a-cheaper-dashboard.md).
// No I/O here: the serving process's early checks (early-work.server.ts) use it.

export type GateOptions = {
  /** Heavy pages of one group in flight at once on the server (0: no bound). */
  limit: number;
  /** What one tenant may hold of them. */
  share: number;
  /** How many of one tenant's pages may wait in line for a slot (0: refused at once). */
  queue: number;
  /** How long one may wait before it is refused. */
  waitMs: number;
};

export type GateFigures = {
  limit: number;
  share: number;
  queue: number;
  waitMs: number;
  /** Refused by this bound (the line full, or the wait over). */
  refusedByServer: number;
  /** Of those, refused after waiting the whole bound. */
  refusedAfterWait: number;
  /** Served after waiting in line. */
  servedAfterWait: number;
  /** The most heavy pages of one tenant and one group in flight at once. */
  mostOfOneTenant: number;
  /** The most heavy pages of one group in flight at once. */
  mostAtOnce: number;
  /** The most of one tenant's pages of one group waiting at once. */
  mostWaiting: number;
};

type Waiter = { grant: (release: (() => void) | null) => void; timer: ReturnType<typeof setTimeout> | null };

export class HeavyGate {
  readonly figures: GateFigures;
  /** In flight, by "<group>:<tenant id>". */
  private held = new Map<string, number>();
  private total = new Map<string, number>();
  /** Waiting in line, by "<group>:<tenant id>", first come first served. */
  private lines = new Map<string, Waiter[]>();

  constructor(private readonly options: GateOptions) {
    const { limit, share, queue, waitMs } = options;
    this.figures = {
      limit,
      share,
      queue,
      waitMs,
      refusedByServer: 0,
      refusedAfterWait: 0,
      servedAfterWait: 0,
      mostOfOneTenant: 0,
      mostAtOnce: 0,
      mostWaiting: 0,
    };
  }

  /** A tenant's first page always goes on; further ones only within its share and the server's bound. */
  private fits(group: string, key: string) {
    const held = this.held.get(key) ?? 0;
    return held === 0 || (held < this.options.share && (this.total.get(group) ?? 0) < this.options.limit);
  }

  private hold(group: string, key: string): () => void {
    const held = (this.held.get(key) ?? 0) + 1;
    const total = (this.total.get(group) ?? 0) + 1;
    this.held.set(key, held);
    this.total.set(group, total);
    this.figures.mostOfOneTenant = Math.max(this.figures.mostOfOneTenant, held);
    this.figures.mostAtOnce = Math.max(this.figures.mostAtOnce, total);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
      this.total.set(group, (this.total.get(group) ?? 1) - 1);
      this.serveWaiting(group);
    };
  }

  /** Hands freed slots to the pages waiting in the group, each tenant's line in order. */
  private serveWaiting(group: string) {
    for (const [key, line] of [...this.lines]) {
      if (!key.startsWith(`${group}:`)) continue;
      while (line.length && this.fits(group, key)) {
        const w = line.shift()!;
        if (w.timer) clearTimeout(w.timer);
        this.figures.servedAfterWait++;
        w.grant(this.hold(group, key));
      }
      if (!line.length) this.lines.delete(key);
      else {
        // The tenant served last goes to the back: another tenant's line is looked at first next time.
        this.lines.delete(key);
        this.lines.set(key, line);
      }
    }
  }

  /**
   * A slot for the tenant now (its release), or null when it is over its share and may not wait
   * (`wait: false`, a group without a line, or the line full).
   */
  tryTake(group: string, tenantId: string): (() => void) | null {
    if (!this.options.limit) return () => {};
    const key = `${group}:${tenantId}`;
    if (!this.lines.get(key)?.length && this.fits(group, key)) return this.hold(group, key);
    return null;
  }

  /**
   * A slot for the tenant: at once when within its share, else after waiting in its line (at
   * most `queue` waiting, at most `waitMs` each); null when the line is full, the wait ran out,
   * or `signal` aborted (the client went away).
   */
  take(group: string, tenantId: string, opts: { wait: boolean; signal?: AbortSignal }): Promise<(() => void) | null> {
    const now = this.tryTake(group, tenantId);
    if (now) return Promise.resolve(now);
    const key = `${group}:${tenantId}`;
    const line = this.lines.get(key) ?? [];
    if (!opts.wait || !this.options.queue || line.length >= this.options.queue || opts.signal?.aborted) {
      this.figures.refusedByServer++;
      return Promise.resolve(null);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = { grant: resolve, timer: null };
      const leave = (timedOut: boolean) => {
        const l = this.lines.get(key);
        const at = l ? l.indexOf(waiter) : -1;
        if (at < 0) return;
        l!.splice(at, 1);
        if (!l!.length) this.lines.delete(key);
        if (waiter.timer) clearTimeout(waiter.timer);
        this.figures.refusedByServer++;
        if (timedOut) this.figures.refusedAfterWait++;
        resolve(null);
      };
      waiter.timer = setTimeout(() => leave(true), this.options.waitMs);
      opts.signal?.addEventListener("abort", () => leave(false), { once: true });
      line.push(waiter);
      this.lines.set(key, line);
      this.figures.mostWaiting = Math.max(this.figures.mostWaiting, line.length);
    });
  }

  /** Pages waiting in line now (all tenants, all groups). */
  waiting() {
    let n = 0;
    for (const line of this.lines.values()) n += line.length;
    return n;
  }
}
