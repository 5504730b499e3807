/**
 * The instances project's web server (playwright.config.ts): three real server processes on one
 * PostgreSQL (DATABASE_URL, emptied first), each with its own data and site folders, and Debian's
 * nginx in front of them, round robin, as a load balancer shares no disk with them. Runs until killed;
 * if any process stops, so do the others.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openTestDatabase, resetDatabase } from '../integration/helpers/database.ts';
import {
  childGroup,
  nginxMissingMessage,
  startNginx,
  waitUntilServed,
  writeNginxConfig,
} from '../nginx/nginx-runner.ts';
import { INSTANCE_PORTS, INSTANCES_SITE } from '../site-under-test.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const home = path.join(ROOT, 'test-output/instances');
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('The instances project needs DATABASE_URL (a PostgreSQL the test may empty).');
  process.exit(1);
}
const missing = nginxMissingMessage();
if (missing) {
  console.error(missing);
  process.exit(1);
}

const database = await openTestDatabase();
await resetDatabase(database);
await database.close();
// Each instance's folders are its own; the site folder of the first one is kept between runs, so
// the instance that publishes first finds a current build (the others never build until they publish).
for (const index of [1, 2, 3])
  await rm(path.join(home, String(index), 'data'), { recursive: true, force: true });

const { children, stopAll } = childGroup();

const secrets = {
  SESSION_SECRET: randomBytes(32).toString('hex'),
  TOKEN_KEY: randomBytes(32).toString('hex'),
};
for (const [index, port] of INSTANCE_PORTS.entries()) {
  const own = path.join(home, String(index + 1));
  const server = spawn(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      ...secrets,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PUBLIC_URL: INSTANCES_SITE.publicUrl,
      SITE_DIR: path.join(own, 'site'),
      SAMPLE_CATALOGUE_DIR: path.join(ROOT, 'data'),
      CONTACT_EMAIL: INSTANCES_SITE.contactEmail ?? '',
      DATA_DIR: path.join(own, 'data'),
      // nginx is the one proxy in front: the client address is the last X-Forwarded-For entry.
      TRUST_PROXY_HOPS: '1',
      // INSTANCE_LOG_LEVEL=info logs every request (with DEBUG=pw:webserver): what a failed walk asked for.
      LOG_LEVEL: process.env.INSTANCE_LOG_LEVEL ?? 'warn',
      RATE_LIMIT_MULTIPLIER: '1000',
    },
  });
  children.push(server);
  server.on('exit', (code) => {
    console.error(`Instance ${index + 1} stopped (exit ${code}).`);
    stopAll(1);
  });
}

// An instance without a site of its own serves pages once the publisher's first version reaches it.
for (const port of INSTANCE_PORTS) {
  const origin = `http://127.0.0.1:${port}`;
  if (!(await waitUntilServed(origin, 240_000))) {
    console.error(`Instance on port ${port} did not serve its health and site within 4 minutes.`);
    stopAll(1);
  }
}

const { port } = new URL(INSTANCES_SITE.publicUrl);
const block = path.join(home, 'nginx-block.conf');
await mkdir(home, { recursive: true });
await writeFile(
  block,
  [
    'upstream instances {',
    ...INSTANCE_PORTS.map((instance) => `    server 127.0.0.1:${instance};`),
    '    keepalive 16;',
    '}',
    'server {',
    `    listen 127.0.0.1:${port};`,
    '    keepalive_timeout 65s;',
    '    location / {',
    '        proxy_pass http://instances;',
    '        proxy_http_version 1.1;',
    '        proxy_set_header Connection "";',
    '        proxy_set_header Host $host;',
    '        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '        proxy_set_header X-Forwarded-Proto $scheme;',
    '    }',
    '}',
    '',
  ].join('\n'),
);
const nginx = startNginx(path.join(home, 'nginx'), await writeNginxConfig(path.join(home, 'nginx'), block));
children.push(nginx);
nginx.on('exit', (code) => {
  console.error(`nginx stopped (exit ${code}).`);
  stopAll(1);
});
