// Preloaded into every test process by tests/run.ts (NODE_OPTIONS=--import=...): db/ reads no
// environment, so this gives the test files' direct database use (rows(), the services) the
// database the runner started, as db/index.ts's configureDb() would (it keeps its options on
// globalThis.__dbOptions). Plain JavaScript, so it loads before the TypeScript loader.
// Processes that configure their own (scripts, the built app) replace it when they start.
if (process.env.DATABASE_URL) {
  globalThis.__dbOptions = { url: process.env.DATABASE_URL, logSql: !!process.env.LOG_SQL };
}
