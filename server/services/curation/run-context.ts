import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { RunTrigger } from '../../repositories/curation-runs.ts';
import type { NewThread } from '../../repositories/threads.ts';
import type { ThreadsGateway } from '../../threads/gateway.ts';

export interface CurationDeps {
  db: Database;
  gateway: ThreadsGateway;
  tokenKey: Buffer;
  settings: Config['curation'];
  adminUsernames: readonly string[];
  trigger: RunTrigger;
  /** Progress lines (the CLI prints them; the server logs them). */
  progress?: (line: string) => void;
  now?: () => Date;
}

/** What the steps of one run share: how found posts are added, and the run's errors and progress. */
export interface RunState {
  /** Stores found rows under `source`; `insightsSkipped` counts insights calls not made for them. */
  add: (source: string, rows: (NewThread | null)[], insightsSkipped?: number) => Promise<number>;
  errors: string[];
  say: (line: string) => void;
  now: () => Date;
  searchesMade: () => number;
  onSearch: () => void;
}
