# The portal's image: the web app, the vendor console and the server bundle on Node 24 LTS, with
# production dependencies only (ADR 060). Build:  docker build -t customer-portal .
# (podman: add --format docker, else the OCI format drops HEALTHCHECK).
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency, the two web apps and the server bundle
FROM ${NODE_IMAGE} AS build
WORKDIR /src
# The manifests alone first, so the dependency layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/ui/package.json packages/ui/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/console/package.json apps/console/
COPY e2e/package.json e2e/
# npm's download cache survives between builds (BuildKit and podman); the layer holds none of it.
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
# Public build-time settings of the web app (never secrets: they end up in the browser's code).
ARG VITE_POSTHOG_KEY=
ARG VITE_POSTHOG_HOST=
ARG VITE_ACCENT_COLOR=
RUN npm run build

# ---- deps: the server's production dependencies, without what only compilers and editors read
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/ui/package.json packages/ui/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/console/package.json apps/console/
COPY e2e/package.json e2e/
# TypeScript comes along only as an optional peer of mjml's config loader, unused at run time.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --workspace apps/server --no-audit --no-fund \
 && rm -rf node_modules/typescript node_modules/@portal \
 && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \
      -o -name '*.md' -o -name '*.markdown' \) -delete \
 && mkdir -p apps/server/node_modules

# ---- run
FROM ${NODE_IMAGE}
ARG VERSION=0.1.0
ARG REVISION=
ARG SOURCE_URL=
ARG LICENSE=LicenseRef-Proprietary
LABEL org.opencontainers.image.title="Customer portal" \
      org.opencontainers.image.description="Self-hosted customer portal for vendors of node-licensed software" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.licenses="${LICENSE}"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    CONSOLE_HOST=0.0.0.0 \
    CONSOLE_PORT=3001 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=deps /app/apps/server/node_modules apps/server/node_modules
COPY --from=build /src/apps/server/package.json apps/server/
COPY --from=build /src/apps/server/drizzle apps/server/drizzle
COPY --from=build /src/apps/server/dist apps/server/dist
COPY --from=build /src/apps/web/dist apps/web/dist
COPY --from=build /src/apps/console/dist apps/console/dist
# Everything above is root's and read-only to the server; only DATA_DIR is its own.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000 3001
# The server finishes its requests within 10 s of SIGTERM: give it a grace period of 15 s or more.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--enable-source-maps", "apps/server/dist/server.mjs"]
