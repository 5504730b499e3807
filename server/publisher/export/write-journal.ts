import path from 'node:path';

/** What was written or removed under a journal's folder since it was last taken (absolute paths). */
export interface JournalEntries {
  /** Files renamed into place or removed. */
  files: Set<string>;
  /** Paths removed with everything under them (a stale topic's folder). */
  trees: Set<string>;
}

const open = new Set<WriteJournal>();

const empty = (): JournalEntries => ({ files: new Set(), trees: new Set() });

/**
 * The files the export wrote or removed under a folder (decision 044): every writer here notes each
 * path it renames into place or removes, so the publisher records a version from what changed
 * instead of listing and reading the whole catalogue. Trap: a writer that forgets to note a path
 * leaves it out of the versions other instances serve; tests/integration compares the journal with a
 * full listing after each kind of export.
 */
export class WriteJournal {
  readonly root: string;
  #entries = empty();

  constructor(folder: string) {
    this.root = `${path.resolve(folder)}${path.sep}`;
    open.add(this);
  }

  /** What was noted since the last take; the journal starts afresh. */
  take(): JournalEntries {
    const taken = this.#entries;
    this.#entries = empty();
    return taken;
  }

  /** Stops noting (the publisher stopped). */
  close(): void {
    open.delete(this);
  }

  /** @internal the writers' entry point (see noteWritten, noteRemovedTree). */
  note(file: string, tree: boolean): void {
    if (!file.startsWith(this.root)) return;
    (tree ? this.#entries.trees : this.#entries.files).add(file);
  }
}

/** Notes files renamed into place or removed; costs nothing while no journal is open. */
export function noteWritten(...files: string[]): void {
  if (open.size === 0) return;
  for (const file of files) for (const journal of open) journal.note(path.resolve(file), false);
}

/** Notes a path removed with everything under it (a folder, or a file removed the same way). */
export function noteRemovedTree(target: string): void {
  if (open.size === 0) return;
  for (const journal of open) journal.note(path.resolve(target), true);
}
