import type { MigrationModule } from "../migrate";
import * as m0001 from "./0001-foundation";
import * as m0002 from "./0002-records";
import * as m0003 from "./0003-import-runs";

/**
 * Every migration, in order. Listed by hand (not globbed) so the compiled server bundle
 * carries them. Add new ones at the end with the next number.
 */
export const MIGRATIONS: Array<[string, MigrationModule]> = [
  ["0001-foundation", m0001],
  ["0002-records", m0002],
  ["0003-import-runs", m0003],
];
