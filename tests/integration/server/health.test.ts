import { expect, test } from 'vitest';
import { HealthSchema } from '../../../contract/health.ts';
import { VERSION } from '../../../server/version.ts';
import { buildTestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/database.ts';

test('health answers status, db, version and uptime, never cached', async () => {
  const app = await buildTestApp();
  try {
    const res = await app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = HealthSchema.parse(res.json());
    expect(body).toMatchObject({ status: 'ok', db: 'ok', version: VERSION });
  } finally {
    await app.close();
  }
});

test('with the database gone, health answers 503 with Retry-After; the site itself stays up', async () => {
  const database = await openTestDatabase();
  const app = await buildTestApp({}, { database });
  try {
    await database.close();
    const res = await app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ status: 'degraded', db: 'unavailable', version: VERSION });
    expect((await app.inject({ url: '/' })).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});
