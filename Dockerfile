# syntax=docker/dockerfile:1
# Agora's production image: the standalone server (`npm run build`, .next/standalone) on Node 24 LTS, run as a non-root
# user, with the same start command CI runs outside a container (README, Production; tests/unit/container.test.ts
# holds the two together). Secrets come from the environment at run time, never from the image.

# Build: the whole workspace, its dev dependencies and `npm run build` (next build, then scripts/standalone.mjs).
FROM node:24-bookworm-slim AS build
WORKDIR /src
ENV NEXT_TELEMETRY_DISABLED=1
# Public settings that a build bakes into its bundle and headers (the analytics key in the browser bundle, the
# sign-in form targets in the CSP). None of them is a secret. SITE_URL is not among them: one image runs on any
# domain. It is read when the container starts (`docker run -e SITE_URL=https://agora.example`), and the pages the
# build prerendered and the tarballs it packed are rewritten to it then, in memory (server/deployment-rewrite.mjs).
ARG NEXT_PUBLIC_POSTHOG_KEY
ARG NEXT_PUBLIC_POSTHOG_HOST
ARG AUTH_GOOGLE_ID
ARG GITHUB_OAUTH_URL
COPY . .
RUN npm ci --no-audit --no-fund && npm run build

# The sandbox (compose profile "sandbox"): it runs from a full checkout with its dev tools (tsx, anvil).
FROM build AS sandbox
CMD ["npm", "run", "sandbox"]

# Runtime: only the standalone output (traced node_modules, server.js, static assets, public/, migrations,
# migrate.mjs and the three preloads), owned by the image's unprivileged `node` user. The heap flags are start:prod's
# (docs/production.md, Memory: why the young generation is sized, not left to Node 24).
FROM node:24-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    NODE_OPTIONS="--max-old-space-size=256 --max-semi-space-size=16"
COPY --from=build --chown=node:node /src/.next/standalone ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SITE_URL, CONTACT_EMAIL and the secrets come from the environment when the container starts.
# Migrations run first as their own step (compose: the `migrate` service, `node migrate.mjs`).
CMD ["node", "--import", "./server/client-address.mjs", "--import", "./server/graceful-shutdown.mjs", "--import", "./server/overload.mjs", "--import", "./server/static-fast-path.mjs", "server.js"]
