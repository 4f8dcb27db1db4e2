# Herald's image. Node.js 24 runs the TypeScript sources directly, so the server has no build step:
# the first stage installs the production dependencies, the second builds the dashboard (web/ with
# Vite, which needs the devDependencies), the last holds the dependencies, the sources and the built
# dashboard and nothing else, and runs as the unprivileged `node` user. See docs/OPERATIONS.md ("Docker").

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Only the devDependency `node` has an install script; production dependencies need none.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:24-bookworm-slim AS web
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts/build-web.js ./scripts/build-web.js
COPY web ./web
RUN node scripts/build-web.js

FROM node:24-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    HERALD_DATA_DIR=/data
COPY --from=deps /app/node_modules ./node_modules
COPY --from=web /app/web/dist ./web/dist
COPY package.json ./
COPY bin ./bin
COPY config ./config
COPY src ./src
# The data directory (embedded database, secrets.json) belongs to the user the process runs as.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# 3000: HTTP (API, admin API, /healthz, /readyz, /metrics); 2525: inbound SMTP (HERALD_SMTP_PORT);
# 2587 and 2465: SMTP submission with STARTTLS and over TLS (HERALD_SUBMISSION_PORT, HERALD_SUBMISSIONS_PORT).
EXPOSE 3000 2525 2587 2465
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/herald.js"]
CMD ["start"]
