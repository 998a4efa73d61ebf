# syntax=docker/dockerfile:1
# One image target per app, all built from the same Nx build:
#   docker build --target api-gateway -t signup/api-gateway .

FROM node:20.20-bookworm-slim AS base
WORKDIR /srv
ENV NX_DAEMON=false NX_NO_CLOUD=true

FROM base AS build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx nx run-many -t build --output-style=static && npm prune --omit=dev

FROM base AS runtime
ENV NODE_ENV=production HOST=0.0.0.0
COPY --from=build /srv/package.json ./package.json
COPY --from=build /srv/node_modules ./node_modules
COPY --from=build /srv/dist ./dist
USER node

# Applies every app's migrations (or the apps named as arguments) to DATABASE_URL.
FROM runtime AS migrate
ENTRYPOINT ["node", "dist/tools/launcher/src/migrate.js"]

FROM runtime AS api-gateway
EXPOSE 3000
CMD ["node", "dist/apps/api-gateway/src/main.js"]

FROM runtime AS auth-server
EXPOSE 3001
CMD ["node", "dist/apps/auth-server/src/main.js"]

FROM runtime AS mcp-server
EXPOSE 3002
CMD ["node", "dist/apps/mcp-server/src/main.js"]

FROM runtime AS signups-service
EXPOSE 3010
CMD ["node", "dist/apps/signups-service/src/main.js"]

FROM runtime AS webhooks-dispatcher
EXPOSE 3011
CMD ["node", "dist/apps/webhooks-dispatcher/src/main.js"]

FROM runtime AS reminders-service
EXPOSE 3012
CMD ["node", "dist/apps/reminders-service/src/main.js"]
