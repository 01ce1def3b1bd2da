// The entry of each thread of the CPU pool (app/services/work/pool.server.ts, decision 331).
// Plain JavaScript, so plain `node` (remix-serve) can load it: it registers the TypeScript
// loader of tsx (a dependency; `npm start` runs with it too) in this thread and imports the
// tasks, which take plain data and return plain data.
import { register } from "tsx/esm/api";

register();
const tasks = await import("./cpu-tasks.ts");

export default tasks.default;
