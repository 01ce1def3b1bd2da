/**
 * Fault injection for tests: `FAULTS=point1,point2` makes `injectFault(point)` throw there.
 * Ignored in production, so no request can trigger it on a real deployment.
 */
import { env } from "./env.server";

export class InjectedFault extends Error {
  constructor(point: string) {
    super(`injected fault at ${point}`);
    this.name = "InjectedFault";
  }
}

export function injectFault(point: string) {
  const { FAULTS: faults, NODE_ENV } = env();
  // (env(), not process.env.NODE_ENV: the build inlines the latter as "production".)
  if (faults.length === 0 || NODE_ENV === "production") return;
  if (faults.includes(point)) throw new InjectedFault(point);
}
