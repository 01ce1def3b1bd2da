// The tasks the CPU pool runs (decision 331), shared by the pool and its threads.
import type { ImportType } from "~/services/import/columns";
import type { MappingContext } from "~/services/import/mapping/apply.server";

export type CpuTask = {
  kind: "import-analyse";
  type: ImportType;
  /** The whole file (at most the import's byte limit plus one). */
  data: Uint8Array;
  /** The mapping the tenant chose before for these headers, if any. */
  known: (string | null)[] | null;
  context?: MappingContext;
};

export type CpuKind = CpuTask["kind"];
