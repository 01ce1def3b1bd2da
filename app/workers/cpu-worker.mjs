// The entry of each thread of the CPU pool (app/services/work/pool.server.ts, decision 331).
// Plain JavaScript, so plain `node` (remix-serve) can load it: it registers the TypeScript
// loader of tsx (a dependency; `npm start` runs with it too) in this thread and imports the
// tasks, which take plain data and return plain data.
import os from "node:os";
import { register } from "tsx/esm/api";

// The pool's threads yield the CPU to the request thread: on Linux a thread's nice value is its
// own, so only this thread is lowered (10: about a tenth of the weight of a normal thread when
// both want the same core). Where the system refuses, the thread keeps its priority.
try {
  os.setPriority(10);
} catch {
  /* not permitted here */
}

register();
const tasks = await import("./cpu-tasks.ts");

export default tasks.default;
