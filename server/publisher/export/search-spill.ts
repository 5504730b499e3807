import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { cardSearchTerms, SEARCH_ENTRY_FILE } from '../../../contract/search-terms.ts';
import type { ThreadCard } from '../../../contract/thread-card.ts';
import {
  BASE_KEY_LENGTH,
  deltaJson,
  prefix,
  searchEntryBody,
  shardFiles,
  SHARD_SPLIT_BYTES,
  type TermPostings,
} from './search-index.ts';

/**
 * Partitions the postings are spilled into. A partition holds whole shard groups (by the first two
 * characters of a term), so each is turned into its shards alone; at 1,000,000 threads one holds
 * about 1/64 of the postings, which is what the export holds in memory at once for the index.
 */
const PARTITIONS = 64;

/** Bytes a partition gathers before they go to its file: 64 of them stay far below the memory target. */
const FLUSH_BYTES = 128 * 1024;

/** Authors, handles and tags whose terms are remembered (they repeat); the memo is dropped past this. */
const NAMES_MEMO_MAX = 20_000;

/** The spill folders' name prefix: one left by a killed export is removed by the next. */
export const SPILL_PREFIX = '.search-spill-';

function partitionOf(term: string): number {
  const key = prefix(term, BASE_KEY_LENGTH);
  // FNV-1a over the UTF-16 units: cheap, and the same on every machine.
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % PARTITIONS;
}

/** One spill file: lines `position\tterm\tterm...`, positions ascending. */
interface Partition {
  file: string;
  handle: FileHandle;
  pending: string[];
  bytes: number;
}

/**
 * The static search index built in bounded memory: the cards' (term, position) postings are spilled
 * to temporary files as the cards stream by, partitioned by the shard group of the term, then each
 * partition is read back, sorted and split into shards by the same rules as `searchIndexFiles`, so
 * the same cards give byte-identical files.
 */
export class SearchIndexSpill {
  private names = new Map<string, readonly string[]>();
  private docs = 0;

  private readonly dir: string;
  private readonly partitions: Partition[];

  private constructor(dir: string, partitions: Partition[]) {
    this.dir = dir;
    this.partitions = partitions;
  }

  /**
   * A spill in a fresh folder under `parentDir`: the catalogue's own disk, not the system's temporary
   * folder, which may be memory (tmpfs). Its name starts with SPILL_PREFIX.
   */
  static async create(parentDir: string): Promise<SearchIndexSpill> {
    const dir = await mkdtemp(path.join(parentDir, SPILL_PREFIX));
    const partitions = await Promise.all(
      Array.from({ length: PARTITIONS }, async (_, index) => {
        const file = path.join(dir, `${index}.txt`);
        return { file, handle: await open(file, 'w'), pending: [], bytes: 0 };
      }),
    );
    return new SearchIndexSpill(dir, partitions);
  }

  /** Adds the card at `position`; positions must come in ascending order, each once. */
  async add(card: ThreadCard, position: number): Promise<void> {
    if (this.names.size > NAMES_MEMO_MAX) this.names.clear();
    const lines = new Map<number, string>();
    for (const term of cardSearchTerms(card, this.names)) {
      // Terms are letters and digits only (search-terms.ts splits at everything else): the separators are safe.
      const index = partitionOf(term);
      lines.set(index, `${lines.get(index) ?? position}\t${term}`);
    }
    this.docs = position + 1;
    for (const [index, line] of lines) {
      const partition = this.partitions[index];
      if (!partition) continue;
      partition.pending.push(line, '\n');
      partition.bytes += line.length + 1;
      if (partition.bytes >= FLUSH_BYTES) await flush(partition);
    }
  }

  /**
   * Writes every shard with `write` (path relative to the catalogue folder, body), then the entry
   * file; returns the paths written, and removes the spill. `docs` is how many cards were added.
   */
  async finish(
    version: string,
    write: (name: string, body: string) => Promise<void>,
    { splitBytes = SHARD_SPLIT_BYTES }: { splitBytes?: number | undefined } = {},
  ): Promise<string[]> {
    const entry: [string, string][] = [];
    const names: string[] = [];
    for (const partition of this.partitions) {
      await flush(partition);
      await partition.handle.close();
      const items = await readPartition(partition.file);
      for (const [key, file, body] of shardFiles(items, version, splitBytes)) {
        entry.push([key, file]);
        names.push(`search/${file}`);
        await write(`search/${file}`, body);
      }
    }
    await write(SEARCH_ENTRY_FILE, searchEntryBody(version, this.docs, entry));
    names.push(SEARCH_ENTRY_FILE);
    await this.discard();
    return names;
  }

  /** Removes the spill files (after finish, or when the export gives up). */
  async discard(): Promise<void> {
    await Promise.all(this.partitions.map((partition) => partition.handle.close().catch(() => undefined)));
    await rm(this.dir, { recursive: true, force: true });
  }
}

async function flush(partition: Partition): Promise<void> {
  if (partition.pending.length === 0) return;
  const text = partition.pending.join('');
  partition.pending = [];
  partition.bytes = 0;
  await partition.handle.write(text);
}

/** A partition's postings as sorted terms with their delta-encoded positions. */
async function readPartition(file: string): Promise<TermPostings[]> {
  const postings = new Map<string, number[]>();
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const fields = line.split('\t');
    const position = Number(fields[0]);
    for (let i = 1; i < fields.length; i++) {
      const term = fields[i] ?? '';
      const list = postings.get(term);
      if (list) list.push(position);
      else postings.set(term, [position]);
    }
  }
  // Plain code-unit order, as searchIndexFiles sorts.
  return [...postings.keys()].sort().map((term) => ({ term, json: deltaJson(postings.get(term) ?? []) }));
}
