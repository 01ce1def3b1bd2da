// The pool of worker threads for CPU work (decision 331): an import's parse and checks run
// there, so the request thread only routes, reads and renders. One pool per app server, sized
// to the machine (os.availableParallelism()); each tenant holds at most its share of the
// threads at once, and its further tasks wait in its own line, so another tenant always finds
// a thread (with two threads: one each).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import type { CpuKind, CpuTask } from "./tasks";

export const POOL_SIZE = Math.max(1, os.availableParallelism());
/** The threads one tenant may hold at once. */
export const TENANT_SHARE = Math.max(1, Math.floor(POOL_SIZE / 2));

type Figures = {
  size: number;
  tenantShare: number;
  /** Tasks run in the pool, by kind. */
  ran: Record<CpuKind, number>;
  /** Tasks that waited for their tenant's share. */
  waitedForShare: number;
  /** The most threads one tenant held at once. */
  mostHeldByOneTenant: number;
};

type State = {
  pool: Piscina | null;
  held: Map<string, number>;
  lines: Map<string, Array<() => void>>;
  figures: Figures;
};

declare global {
  var __cpuPool: State | undefined;
}

function state(): State {
  globalThis.__cpuPool ??= {
    pool: null,
    held: new Map(),
    lines: new Map(),
    figures: {
      size: POOL_SIZE,
      tenantShare: TENANT_SHARE,
      ran: { "import-analyse": 0, "import-map": 0, "import-serialise": 0, "export-slice": 0, pdf: 0, "report-csv": 0 },
      waitedForShare: 0,
      mostHeldByOneTenant: 0,
    },
  };
  return globalThis.__cpuPool;
}

/** The app's root (the folder of its package.json): the bundle lives in build/, the sources in app/. */
function appRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json")) || !fs.existsSync(path.join(dir, "app/workers"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error("The CPU pool's worker (app/workers/cpu-worker.mjs) was not found.");
    dir = up;
  }
  return dir;
}

function pool(): Piscina {
  const s = state();
  if (!s.pool) {
    s.pool = new Piscina({
      filename: path.join(appRoot(), "app/workers/cpu-worker.mjs"),
      minThreads: 1,
      maxThreads: POOL_SIZE,
      idleTimeout: 60_000,
    });
    // The threads end with the process (scripts/serve-hooks.mjs runs the stop hooks).
    const hooks = ((globalThis as { __stopHooks?: Set<() => Promise<void>> }).__stopHooks ??= new Set());
    const created = s.pool;
    hooks.add(() => created.destroy());
  }
  return s.pool;
}

async function takeShare(tenantId: string): Promise<void> {
  const s = state();
  const held = s.held.get(tenantId) ?? 0;
  if (held < TENANT_SHARE) {
    s.held.set(tenantId, held + 1);
  } else {
    s.figures.waitedForShare++;
    // The slot is handed over by the task that ends (giveShare), already counted.
    await new Promise<void>((resolve) => {
      const line = s.lines.get(tenantId) ?? [];
      line.push(resolve);
      s.lines.set(tenantId, line);
    });
  }
  s.figures.mostHeldByOneTenant = Math.max(s.figures.mostHeldByOneTenant, s.held.get(tenantId) ?? 0);
}

function giveShare(tenantId: string) {
  const s = state();
  const line = s.lines.get(tenantId);
  const next = line?.shift();
  if (line && !line.length) s.lines.delete(tenantId);
  if (next) return next();
  const held = (s.held.get(tenantId) ?? 1) - 1;
  if (held > 0) s.held.set(tenantId, held);
  else s.held.delete(tenantId);
}

/**
 * Runs a task in the pool within the tenant's share of its threads. `move`: buffers of the task
 * that go to the thread instead of being copied; the caller cannot read them afterwards.
 */
export async function runCpu<T>(tenantId: string, task: CpuTask, move: ArrayBuffer[] = []): Promise<T> {
  await takeShare(tenantId);
  try {
    const result = (await pool().run(task, { transferList: move })) as T;
    state().figures.ran[task.kind]++;
    return result;
  } finally {
    giveShare(tenantId);
  }
}

/** The pool's counters (the health check shows them outside production; tests read them there). */
export function poolFigures(): Figures & { completed: number; threads: number } {
  const s = state();
  return { ...s.figures, completed: s.pool?.completed ?? 0, threads: s.pool?.threads.length ?? 0 };
}
