/**
 * The benchmark's reference web server: Debian's nginx, as this user, with a minimal config of the
 * benchmark's own (not the product's generated server block) serving a folder as any host would.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NGINX_PATH, workerUserLines } from '../../tests/nginx/nginx-runner.ts';
import { startTracked, type Tracked } from './processes.ts';

export interface NginxSite {
  /** Prefix folder: config, pid, logs and temp files live here. */
  prefix: string;
  /** The folder it serves (the same dist the product serves). */
  root: string;
  port: number;
  /** Exact paths served from another folder instead (the no-script copy of home), path -> folder. */
  extraFiles?: Record<string, string>;
  /** Also compress text on the fly (gzip level 6), as a CDN would: for page loads, not load runs. */
  gzipOnTheFly?: boolean;
}

/** The MIME types of what a built site holds (self-contained: no /etc/nginx/mime.types). */
const TYPES: Record<string, string> = {
  'text/html': 'html',
  'text/css': 'css',
  'text/plain': 'txt',
  'text/xml': 'xml',
  'application/javascript': 'js mjs',
  'application/json': 'json',
  'application/rss+xml': 'rss',
  'application/manifest+json': 'webmanifest',
  'image/svg+xml': 'svg',
  'image/png': 'png',
  'image/jpeg': 'jpg jpeg',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'font/woff2': 'woff2',
};

/** What `gzipOnTheFly` compresses (text/html always is). */
const GZIP_TYPES = 'text/css text/plain text/xml application/javascript application/json image/svg+xml';

/** The reference config: one worker, sendfile, keep-alive, precompressed .gz files when present. */
export function referenceNginxConfig({
  prefix,
  root,
  port,
  extraFiles = {},
  gzipOnTheFly = false,
}: NginxSite): string {
  const types = Object.entries(TYPES).map(([type, extensions]) => `    ${type} ${extensions};`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (name) => `  ${name}_temp_path ${path.join(prefix, 'tmp', name)};`,
  );
  const extras = Object.entries(extraFiles).map(
    ([urlPath, folder]) => `    location = ${urlPath} {\n      root ${folder};\n    }`,
  );
  return `# The benchmark's reference: a minimal static server, not the product's generated config.
${workerUserLines().join('\n')}
worker_processes 1;
pid ${path.join(prefix, 'nginx.pid')};
error_log ${path.join(prefix, 'error.log')} warn;
events {
  worker_connections 1024;
}
http {
  types {
${types.join('\n')}
  }
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 65;
  keepalive_requests 1000000;
  gzip_static on;
${gzipOnTheFly ? `  gzip on;\n  gzip_comp_level 6;\n  gzip_types ${GZIP_TYPES};\n` : ''}${temp.join('\n')}
  server {
    listen 127.0.0.1:${port};
    root ${root};
    index index.html;
    location / {
      try_files $uri $uri/ $uri.html =404;
    }
${extras.join('\n')}
  }
}
`;
}

/** Writes the config under `site.prefix`, starts nginx on `core` and waits until it answers. */
export async function startNginx(
  site: NginxSite,
  core: number | null,
): Promise<Tracked & { baseUrl: string }> {
  await mkdir(path.join(site.prefix, 'tmp'), { recursive: true });
  const conf = path.join(site.prefix, 'nginx.conf');
  await writeFile(conf, referenceNginxConfig(site));
  const args = [
    '-p',
    site.prefix,
    '-c',
    conf,
    '-e',
    path.join(site.prefix, 'error.log'),
    '-g',
    'daemon off;',
  ];
  const nginx = startTracked(NGINX_PATH, args, { core });
  const baseUrl = `http://127.0.0.1:${site.port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (nginx.child.exitCode !== null) throw new Error(`nginx exited:\n${nginx.output()}`);
    if (
      await fetch(`${baseUrl}/`).then(
        () => true,
        () => false,
      )
    )
      return { ...nginx, baseUrl };
    await sleep(100);
  }
  await nginx.stop();
  throw new Error(`nginx did not answer on ${baseUrl}:\n${nginx.output()}`);
}
