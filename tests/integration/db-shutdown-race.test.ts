// A new database connection that PostgreSQL ends as it shuts down (db/index.ts, ListeningClient).
//
// PostgreSQL stopping under load sends "terminating connection due to administrator command"
// to every session, a new one too. When that message came in the same read as the connect's
// last message, Sequelize had not yet added its error listener, and the app's process ended
// (the fault test "PostgreSQL stopped under load" saw the server exit in CI). Here a loopback
// server speaking the protocol answers a connect with exactly that read, every time, and the
// app's database layer runs in a process of its own, so an uncaught error shows as its exit.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { after, before, test } from "node:test";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** One backend message: its type, its length (itself included), its body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, "ascii");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const authenticationOk = message("R", Buffer.from([0, 0, 0, 0]));
const readyForQuery = message("Z", Buffer.from("I"));
const terminating = message(
  "E",
  Buffer.concat([
    Buffer.from("SFATAL\0"),
    Buffer.from("C57P01\0"),
    Buffer.from("Mterminating connection due to administrator command\0"),
    Buffer.from([0]),
  ]),
);

let server: net.Server;
let port = 0;
let sessions = 0;

before(async () => {
  server = net.createServer((socket) => {
    socket.on("error", () => {});
    // The startup message is the client's first; the answer is one write: ready, then ended.
    socket.once("data", () => {
      sessions++;
      socket.write(Buffer.concat([authenticationOk, readyForQuery, terminating]));
      setTimeout(() => socket.destroy(), 200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const CHILD = `
import { closeDb, configureDb, db } from "./db/index.ts";
import { isDbUnavailable } from "./app/http/envelope.server.ts";
configureDb({ url: process.env.URL, acquireMs: 2000 });
for (let i = 0; i < 3; i++) {
  try {
    await db().query("SELECT 1");
    console.log("ANSWER answered");
  } catch (error) {
    console.log("ANSWER " + (isDbUnavailable(error) ? "unavailable" : "other: " + String(error)));
  }
}
await closeDb().catch(() => {});
process.exit(0);
`;

test("a connection ended in the same read as its connect answers 'unavailable' and the process lives on", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD], {
    cwd: ROOT,
    env: { ...process.env, URL: `postgres://postgres:x@127.0.0.1:${port}/none` },
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  assert.equal(code, 0, `the process ended with ${code}:\n${err.slice(-1500)}`);
  const answers = out.split("\n").filter((l) => l.startsWith("ANSWER "));
  assert.deepEqual(answers, ["ANSWER unavailable", "ANSWER unavailable", "ANSWER unavailable"], out + err);
  assert.ok(sessions >= 3, `each query tried a connection of its own (${sessions})`);
});
