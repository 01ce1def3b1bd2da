/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // build/index.js is the server build `remix-serve` loads; app/server.ts re-exports Remix's
  // own build with the routes run through the app's boundary (docs/decisions/111).
  server: "./app/server.ts",
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
