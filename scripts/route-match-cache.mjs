// Route matching that does not redo its setup on every request (docs/decisions/114).
//
// Remix v2's router (@remix-run/router 1.x) re-flattens and re-ranks the whole route tree and
// compiles a fresh RegExp for every route path it tries, on every `matchRoutes` call; a request
// makes three of them (the server's match, the static handler's query, the render). With this
// app's ~70 routes that was half the CPU of `GET /api/nope` under remix-serve and a fifth of a
// page's (profiled, decision 114). React Router 7 fixed the same thing upstream by computing the
// ranked branches once (remix-run/react-router#14967); Remix v2 will not get that release.
//
// The fix is applied as the router module is compiled in the remix-serve process (the preload
// scripts/serve-hooks.mjs installs it), not by editing node_modules, so an `npm ci` keeps it:
//
// - the flattened, ranked branches are kept per route array (a WeakMap: the server's route
//   arrays are built once per build and never change; a new array is simply flattened once more);
// - a compiled route path (RegExp and parameter names) is kept per (path, caseSensitive, end),
//   bounded, since a pattern is read-only once made;
// - the last match of each depth of a branch is kept: the branches are tried one after another
//   and nearly all begin with the same root route, matched against the same path each time
//   (a match is a pure function of the route's pattern and the path, and is only read).
//
// - only the branches whose first segment can match the path's are tried (in their ranked
//   order): a literal first segment that differs cannot match.
//
// Matching itself, its order and its results are unchanged. If the router's source no longer
// has the expected text (another version), it is loaded unchanged and one warning says so.
import Module from "node:module";

const ROUTER_FILE = /[\\/]@remix-run[\\/]router[\\/]dist[\\/]router\.cjs\.js$/;

const EDITS = [
  {
    from:
      "  let branches = flattenRoutes(routes);\n" +
      "  rankRouteBranches(branches);\n" +
      "  let matches = null;\n" +
      "  let decoded = decodePath(pathname);\n",
    to:
      "  let decoded = decodePath(pathname);\n" +
      "  let branches = __candidateBranches(__rankedBranches(routes), decoded, allowPartial);\n" +
      "  let matches = null;\n",
  },
  {
    from:
      "    let match = matchPath({\n" +
      "      path: meta.relativePath,\n" +
      "      caseSensitive: meta.caseSensitive,\n" +
      "      end\n" +
      "    }, remainingPathname);\n",
    to: "    let match = __matchMeta(i, meta, end, remainingPathname);\n",
  },
  {
    from: "function compilePath(path, caseSensitive, end) {\n",
    to:
      "function compilePath(path, caseSensitive, end) {\n" +
      "  if (caseSensitive === void 0) caseSensitive = false;\n" +
      "  if (end === void 0) end = true;\n" +
      '  let key = (caseSensitive ? "1" : "0") + (end ? "1" : "0") + path;\n' +
      "  let compiled = __compiledPaths.get(key);\n" +
      "  if (compiled === undefined) {\n" +
      "    compiled = __compilePathUncached(path, caseSensitive, end);\n" +
      "    if (__compiledPaths.size >= 2000) __compiledPaths.clear();\n" +
      "    __compiledPaths.set(key, compiled);\n" +
      "  }\n" +
      "  return compiled;\n" +
      "}\n" +
      "function __compilePathUncached(path, caseSensitive, end) {\n",
  },
];

const PRELUDE = `
const __branchCache = new WeakMap();
function __rankedBranches(routes) {
  let branches = __branchCache.get(routes);
  if (branches === undefined) {
    branches = flattenRoutes(routes);
    rankRouteBranches(branches);
    __branchCache.set(routes, branches);
  }
  return branches;
}
// The branches that can match a path whose first segment is \`first\`: those whose own first
// segment is that literal (compared as the case-insensitive match does, ASCII only) or can take
// more than one value (a parameter, a splat, an optional segment, none). The ranked order is
// kept; the others could never match, so trying them (most of ~100 for an /api path, which
// ranks last) only cost time. Partial matching and non-ASCII first segments try every branch.
const __branchesByFirst = new WeakMap();
const __NON_ASCII = /[^\x00-\x7f]/;
function __firstLiteral(path) {
  const segment = path.split("/").find(Boolean);
  if (segment === undefined || segment === "*" || segment.startsWith(":") || segment.endsWith("?") || __NON_ASCII.test(segment)) return null;
  return segment.toLowerCase();
}
function __candidateBranches(branches, decoded, allowPartial) {
  if (allowPartial) return branches;
  let first = decoded.split("/").find(Boolean);
  if (first === undefined || __NON_ASCII.test(first)) return branches;
  first = first.toLowerCase();
  let byFirst = __branchesByFirst.get(branches);
  if (byFirst === undefined) {
    byFirst = new Map();
    __branchesByFirst.set(branches, byFirst);
  }
  let candidates = byFirst.get(first);
  if (candidates === undefined) {
    candidates = branches.filter((branch) => {
      const literal = __firstLiteral(branch.path);
      return literal === null || literal === first;
    });
    // Bounded: a path's first segment is the client's choice.
    if (byFirst.size >= 1000) byFirst.clear();
    byFirst.set(first, candidates);
  }
  return candidates;
}
const __compiledPaths = new Map();
const __lastMatchAt = [];
function __matchMeta(depth, meta, end, pathname) {
  let last = __lastMatchAt[depth];
  if (last !== undefined && last.meta === meta && last.end === end && last.pathname === pathname) return last.match;
  let match = matchPath({ path: meta.relativePath, caseSensitive: meta.caseSensitive, end }, pathname);
  __lastMatchAt[depth] = { meta, end, pathname, match };
  return match;
}
exports.UNSAFE_fieldworkRouteMatchCache = true;
`;

/** The router's source with the caches, or null when it is not the text this was written for. */
export function patchRouterSource(source) {
  let out = source;
  for (const { from, to } of EDITS) {
    const at = out.indexOf(from);
    if (at < 0 || out.indexOf(from, at + 1) >= 0) return null;
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  // After the module's "use strict" and __esModule lines, before any of its code runs.
  const anchor = "Object.defineProperty(exports, '__esModule', { value: true });\n";
  const at = out.indexOf(anchor);
  if (at < 0) return null;
  return out.slice(0, at + anchor.length) + PRELUDE + out.slice(at + anchor.length);
}

let installed = false;

/** Patches @remix-run/router as it is compiled (CommonJS require) in this process. */
export function installRouteMatchCache() {
  if (installed) return;
  installed = true;
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    if (typeof filename === "string" && ROUTER_FILE.test(filename)) {
      const patched = patchRouterSource(content);
      if (patched) content = patched;
      else
        process.emitWarning(
          `${filename}: not the expected @remix-run/router source; route matching is not cached (docs/decisions/114)`,
        );
    }
    return compile.call(this, content, filename);
  };
}
