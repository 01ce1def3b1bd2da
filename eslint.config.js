// ESLint (flat config): TypeScript, React, hooks and accessibility rules over the app, the
// database layer, the scripts, the benchmarks and the tests. `npm test` runs it before the
// tests (tests/run.ts); the layers and cycles are dependency-cruiser's (.dependency-cruiser.cjs).
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "public/build/**",
      ".cache/**",
      ".data/**",
      "tests/.artifacts/**",
      "bench/results/**",
      "node_modules/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    ...react.configs.flat.recommended,
    ...react.configs.flat["jsx-runtime"],
    settings: { react: { version: "18.3" } },
  },
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A scrollable table is a focusable, labelled region (axe's scrollable-region-focusable).
      "jsx-a11y/no-noninteractive-tabindex": [
        "error",
        { tags: [], roles: ["tabpanel", "region"], allowExpressionValues: true },
      ],
      // A label's text may sit in nested spans (a title and a hint).
      "jsx-a11y/label-has-associated-control": ["error", { depth: 4 }],
    },
  },
  {
    // Tests read JSON answers loosely and probe with control characters on purpose.
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "no-control-regex": "off" },
  },
  {
    rules: {
      // tsc checks names; ESLint's no-undef does not know TypeScript's types and globals.
      "no-undef": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
);
