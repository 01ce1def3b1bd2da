// remix-serve on every core: `node scripts/serve-cluster.mjs <remix-serve's cli.js> build/index.js`
// forks WEB_CONCURRENCY processes with node's cluster module, each running remix-serve's own
// command line (`remix-serve build/index.js`) with this process's environment, and so the same
// preload (scripts/serve-hooks.mjs, in NODE_OPTIONS). They listen on the one port; this process
// accepts the connections and hands each to the next serving process in turn. It serves nothing
// itself and loads none of the app.
//
// No request needs the process that served the one before it: sessions are signed cookies, the
// rate limits count in PostgreSQL, live events reach every process by LISTEN/NOTIFY, background
// work claims its rows with SKIP LOCKED or an advisory lock, and what a process keeps in memory
// (rendered markup, fonts) is checked against the database before it is used.
//
// A serving process that ends on its own after it has listened is replaced. One that ends before
// it ever listened (a missing preload, a bad configuration) ends the whole server with its exit
// code, rather than being restarted in a loop. SIGTERM and SIGINT are passed to every process;
// each finishes its requests (serve-hooks) and this process exits once all have. If this process
// is killed outright, the serving processes lose their channel to it and exit.
import cluster from "node:cluster";

const [cli, ...args] = process.argv.slice(2);
const count = Number(process.env.WEB_CONCURRENCY ?? "1");
if (!cli || !Number.isInteger(count) || count < 1) {
  console.error("Usage: WEB_CONCURRENCY=<processes> node scripts/serve-cluster.mjs <remix-serve cli.js> <build>");
  process.exit(1);
}

cluster.setupPrimary({ exec: cli, args });
const alive = new Set();
const listened = new WeakSet();
let stopping = false;
let exitCode = 0;

function fork() {
  const worker = cluster.fork();
  alive.add(worker);
  worker.once("listening", () => listened.add(worker));
}

function stopAll(signal) {
  stopping = true;
  if (alive.size === 0) process.exit(exitCode);
  for (const worker of alive) worker.process.kill(signal);
}

cluster.on("exit", (worker, code, signal) => {
  alive.delete(worker);
  if (!stopping) {
    if (listened.has(worker)) {
      console.error(`A serving process ended (${signal ?? `exit ${code}`}); starting another.`);
      fork();
      return;
    }
    console.error(`A serving process ended before it listened (${signal ?? `exit ${code}`}); the server stops.`);
    exitCode = code || 1;
    stopAll("SIGTERM");
  }
  if (alive.size === 0) process.exit(exitCode);
});

process.on("SIGTERM", () => stopAll("SIGTERM"));
process.on("SIGINT", () => stopAll("SIGINT"));

for (let i = 0; i < count; i++) fork();
