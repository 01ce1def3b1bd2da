import { env } from "./env.server";

/**
 * A small structured logger: one JSON line per event on stderr, with the process that wrote it
 * (several serving processes share one stderr under WEB_CONCURRENCY).
 */
type Level = "error" | "info" | "debug";
const ORDER: Record<string, number> = { silent: 0, error: 1, info: 2, debug: 3 };

/** LOG_LEVEL from the checked configuration; "info" while the configuration itself is being refused. */
function configuredLevel(): string {
  try {
    return env().LOG_LEVEL;
  } catch {
    return "info";
  }
}

function enabled(level: Level) {
  const configured = configuredLevel();
  return (ORDER[configured] ?? 2) >= ORDER[level];
}

function write(level: Level, msg: string, extra?: Record<string, unknown>) {
  if (!enabled(level)) return;
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(extra ?? {})) {
    fields[k] = v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v;
  }
  process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level, pid: process.pid, msg, ...fields }) + "\n");
}

export const log = {
  error: (msg: string, extra?: Record<string, unknown>) => write("error", msg, extra),
  info: (msg: string, extra?: Record<string, unknown>) => write("info", msg, extra),
  debug: (msg: string, extra?: Record<string, unknown>) => write("debug", msg, extra),
};
