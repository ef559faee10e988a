// ESLint flat config (ESLint 9; Next 16 has no `next lint`, `npm run lint:eslint` runs ESLint directly).
// Rules: ESLint's recommended set, Next.js core-web-vitals (React, React Hooks, jsx-a11y, @next/next) and
// typescript-eslint's recommended set, without type information (fast on two cores).
// Which paths are linted is set by the `lint:eslint` script in package.json. Errors fail; warnings do not.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  js.configs.recommended,
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // `catch {}` is the code's idiom for best-effort steps (probes, cleanup, storage that may be blocked).
      "no-empty": ["error", { allowEmptyCatch: true }],
      // The input validators match control characters on purpose, to reject them.
      "no-control-regex": "off",
      // Marking a form ready after hydration and resetting UI state on navigation are deliberate effects.
      "react-hooks/set-state-in-effect": "warn",
      // A leading underscore (and a rest sibling) is how the code drops a value on purpose.
      "@typescript-eslint/no-unused-vars": [
        "warn",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  globalIgnores([
    // eslint-config-next's defaults
    ".next/**",
    "out/**",
    "build/**",
    "next-env.d.ts",
    // build output, generated files and test artefacts
    "packages/*/dist/**",
    "bench/.tmp/**",
    "bench/bare-next/.next/**",
    ".data/**",
    "db/migrations/**",
    "playwright-report/**",
    "test-results/**",
    "coverage/**",
  ]),
]);
