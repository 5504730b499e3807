// Build-time only: the lists the server exports beside the catalogue (profiles, digests).
import { readFile } from 'node:fs/promises';
import type { z } from '../../contract/zod.ts';

/**
 * The list in the file the environment variable `name` points at, checked against `schema`; empty
 * when the variable is unset or the file is missing (the server has exported none yet).
 */
export async function readExportedList<T>(
  name: string,
  schema: z.ZodMiniType<T[]>,
  what: string,
): Promise<T[]> {
  const file = process.env[name]?.trim();
  if (!file) return [];
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(`${file} is not a list of ${what}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
