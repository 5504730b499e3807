/**
 * The nginx project's web server (playwright.config.ts): starts our server on a fresh database with
 * PUBLIC_URL = nginx's origin (it exports the sample and builds the site, which writes the nginx
 * block beside it), waits until it is healthy and serves that site, then runs Debian's nginx in
 * front of it with that block. Runs until killed; if either process stops, so does the other.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { nginxConfFile } from '../../server/publisher/build/host/host-files.ts';
import { NGINX_API_PORT, NGINX_SITE } from '../site-under-test.ts';
import {
  childGroup,
  nginxMissingMessage,
  startNginx,
  waitUntilServed,
  writeNginxConfig,
} from './nginx-runner.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dataDir = path.dirname(NGINX_SITE.catalogueDir);
const prefix = path.join(ROOT, 'test-output/nginx');

const missing = nginxMissingMessage();
if (missing) {
  console.error(missing);
  process.exit(1);
}

await rm(dataDir, { recursive: true, force: true });
const { children, stopAll } = childGroup();

const server = spawn(process.execPath, ['server/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(NGINX_API_PORT),
    PUBLIC_URL: NGINX_SITE.publicUrl,
    SITE_DIR: NGINX_SITE.siteDir,
    SAMPLE_CATALOGUE_DIR: path.join(ROOT, 'data'),
    CONTACT_EMAIL: NGINX_SITE.contactEmail ?? '',
    DATA_DIR: dataDir,
    // nginx is the one proxy in front: the client address is the last X-Forwarded-For entry.
    TRUST_PROXY_HOPS: '1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MULTIPLIER: '1000',
  },
});
children.push(server);
server.on('exit', (code) => {
  console.error(`The server behind nginx stopped (exit ${code}).`);
  stopAll(1);
});

const origin = `http://127.0.0.1:${NGINX_API_PORT}`;
if (!(await waitUntilServed(origin, 180_000))) {
  console.error(`The server behind nginx did not serve its health and site at ${origin} within 3 minutes.`);
  stopAll(1);
}

const nginx = startNginx(prefix, await writeNginxConfig(prefix, nginxConfFile(NGINX_SITE.siteDir)));
children.push(nginx);
nginx.on('exit', (code) => {
  console.error(`nginx stopped (exit ${code}).`);
  stopAll(1);
});
