/**
 * `npx tsx bench/assistant-http.ts`: only B2's assistant figure (POST /ai-assistant/generate,
 * autocannon, 20 connections, 10 s after a 2 s warm-up) against the production build and a
 * fresh database, for the B2 request and the issue 23 request (garage, corroded vent), so the
 * larger rule set can be checked without the whole `npm run bench`.
 */
import { benchDatabase, buildApp, load, printTable, productionServer, figure, type Figure } from "./lib";
import { benchUser } from "./session";

async function main() {
  buildApp();
  const database = await benchDatabase();
  const server = await productionServer({ DATABASE_URL: database.url });
  const figures: Figure[] = [];
  try {
    const user = await benchUser(server.url, database.url);
    const requests = [
      {
        name: "B2 request (water heater, attic)",
        job_title: "Replace 50 gal water heater",
        details: "Two-story house, heater in the attic",
      },
      {
        name: "issue 23 request (garage, corroded vent)",
        job_title: "replace 50 gallon gas water heater in garage, existing venting corroded",
        details: "",
      },
    ];
    for (const r of requests) {
      const opts = {
        url: `${server.url}/ai-assistant/generate`,
        method: "POST" as const,
        body: new URLSearchParams({
          _csrf: user.csrf,
          mode: "quote",
          job_title: r.job_title,
          details: r.details,
        }).toString(),
        headers: {
          cookie: user.cookie,
          origin: server.url,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
      };
      await load({ ...opts, duration: 2 });
      const res = await load(opts);
      if (res.non2xx || res.errors)
        console.warn(`  ${r.name}: ${res.non2xx} non-2xx, ${res.errors} errors of ${res.total}`);
      figures.push(
        figure(
          `POST /ai-assistant/generate, ${r.name} throughput`,
          res.rps,
          "req/s",
          ">= 1500",
          res.rps >= 1500 && !res.non2xx,
        ),
      );
      figures.push(
        figure(`POST /ai-assistant/generate, ${r.name} p99`, res.p99, "ms", "<= 50", res.p99 <= 50 && !res.non2xx),
      );
    }
  } finally {
    await server.stop();
    await database.stop();
  }
  printTable(figures);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
