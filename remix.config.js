/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // The node server (app/http/server.ts) is compiled together with the app into one
  // file, build/index.js, so `node build/index.js` starts the database, migrates and serves.
  server: "./app/http/server.ts",
  serverBuildPath: "build/index.js",
  serverModuleFormat: "esm",
  serverPlatform: "node",
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Lazy route discovery computes a partial manifest on every page request (6% of the
    // portal page's CPU, profiled); the full manifest is one cached file instead.
    v3_lazyRouteDiscovery: false,
  },
};
