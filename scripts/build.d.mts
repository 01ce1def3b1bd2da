/** Builds the production app unless the last build here was of these very sources (scripts/build.mjs). */
export function buildIfStale(): boolean;
