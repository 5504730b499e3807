# Curated Threads in a container (decision 051): the server on the base image's Node 24, production
# dependencies only, as the unprivileged user `node`, its data folder a volume. `compose.yaml` runs it
# beside PostgreSQL. Build: docker build -t curated-threads .
ARG NODE_IMAGE=node:24-slim

# Production dependencies only, from the lockfile. `npm install`, not `npm ci`: the lockfile lacks
# some optional platform packages of Astro's compiler that `npm ci` insists on (decision 051).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund --no-update-notifier \
  && npm cache clean --force

FROM ${NODE_IMAGE}
# sharp draws the preview pictures' words with the machine's fonts (fontconfig); slim has none.
RUN apt-get update \
  && apt-get install -y --no-install-recommends fonts-dejavu-core fontconfig \
  && apt-get clean && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The code belongs to root and cannot be changed by the server; it writes only where it must: the
# data folder, the built site's folder, and what the site build writes inside the project (the
# server builds the site at start, decision 051): each build is staged in node_modules/.cache, where
# its server bundle finds its packages; Vite and Astro keep their own caches in node_modules/.vite
# and .astro.
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN mkdir -p /data site .astro node_modules/.cache node_modules/.vite \
  && chown node:node /data site .astro node_modules/.cache node_modules/.vite
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=4321 \
  DATA_DIR=/data \
  SITE_DIR=/app/site/dist \
  ASTRO_TELEMETRY_DISABLED=1
USER node
VOLUME ["/data"]
EXPOSE 4321
# The load balancer's check (decision 029): 200 when the database and the data folder answer. The
# first start listens at once and builds the site in the background, so health answers early.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4321) + '/api/health', { signal: AbortSignal.timeout(8000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself, not npm: SIGTERM reaches the server, which closes cleanly (compose adds an init
# process that reaps the site builds' children).
CMD ["node", "server/main.ts"]
