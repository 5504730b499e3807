import { z } from 'zod';
import type { ReviewSort } from '../../../contract/review-queue.ts';
import type { ReviewKey } from '../../repositories/review-queue.ts';
import { HttpError } from '../../http/http-error.ts';

const KeySchema = z.discriminatedUnion('sort', [
  z.object({ sort: z.literal('newest'), at: z.string().max(64), id: z.uuid() }).strict(),
  z
    .object({
      sort: z.literal('likes'),
      likes: z.number().int().min(-1).max(2_147_483_647),
      at: z.string().max(64),
      id: z.uuid(),
    })
    .strict(),
  z.object({ sort: z.literal('score'), score: z.number().int().min(0).max(100), id: z.uuid() }).strict(),
]);

// PostgreSQL's text form of a timestamptz; anything else never came from us.
const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d)?$/;

/**
 * Whether PostgreSQL's text timestamp names a real moment (no month 13, hour 99, offset +99 or
 * +15:60: PostgreSQL refuses those casts, which would answer 500).
 */
function realMoment(text: string): boolean {
  const [, date, time, offset] = /^(\S+) (\d\d:\d\d:\d\d)(?:\.\d+)?([+-]\d\d(?::\d\d)?)$/.exec(text) ?? [];
  if (!date || !time || !offset || Math.abs(Number(offset.slice(0, 3))) > 15) return false;
  if (Number(offset.slice(4) || '0') > 59) return false;
  const parsed = new Date(`${date}T${time}Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.getUTCFullYear() < 1) return false;
  return parsed.toISOString().startsWith(`${date}T${time}`);
}

/** The opaque cursor of the page after `key`: the key as base64url JSON. */
export function encodeCursor(key: ReviewKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** Reads a cursor this server gave for `sort`; anything else is a 400. */
export function decodeCursor(cursor: string, sort: ReviewSort): ReviewKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new HttpError(400, 'cursor: not a cursor this server gave.');
  }
  const key = KeySchema.safeParse(parsed);
  if (
    !key.success ||
    (key.data.sort !== 'score' && !(TIMESTAMP.test(key.data.at) && realMoment(key.data.at)))
  ) {
    throw new HttpError(400, 'cursor: not a cursor this server gave.');
  }
  if (key.data.sort !== sort) throw new HttpError(400, 'cursor: it belongs to another sort order.');
  return key.data;
}
