import { parseThreadUrl } from '../../../contract/thread-url.ts';
import type { Database } from '../../../server/db/client.ts';
import { createThreadsRepository, type ThreadRow } from '../../../server/repositories/threads.ts';

/**
 * What a keyword search that finds a submitted post does (decision 063): Threads names its author,
 * which the link's typed handle never does. The link's handle stands for that answer here.
 */
export async function attributeAsSearchWould(db: Database, link: string): Promise<ThreadRow> {
  const parsed = parseThreadUrl(link);
  if (!parsed.ok || !parsed.link.username) throw new Error(`not a link with a handle: ${link}`);
  const threads = createThreadsRepository(db);
  const { shortcode, username, url } = parsed.link;
  await threads.upsertFound([{ shortcode, source: 'public_search', username, permalink: url }]);
  const row = await threads.findByShortcode(shortcode);
  if (!row) throw new Error(`no thread for ${link}`);
  return row;
}
