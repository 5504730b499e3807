import { z } from './zod.ts';

const count = () => z.int().check(z.nonnegative());
const word = () => z.string().check(z.minLength(1));

/** `/data/manifest.json`: when the public catalogue was generated and when the next refresh is due. */
export const ManifestSchema = z.object({
  generatedAt: z.iso.datetime({ offset: true }),
  nextUpdate: z.iso.datetime({ offset: true }),
  counts: z.optional(z.object({ all: count(), text: count(), images: count() })),
  /**
   * The full export the pages belong to: browsers key their cached pages by it. Threads approved
   * since (the tail, decision 037) change `head` instead, and the first pages.
   */
  version: z.optional(word()),
  /** A digest of the tail, the threads approved since the full export (absent: none). */
  head: z.optional(word()),
  /** Cards per file under /data/pages/. */
  pageSize: z.optional(z.int().check(z.positive())),
  /** Every topic tag with approved threads, most threads first. */
  topics: z.optional(z.array(z.object({ tag: word(), slug: word(), count: z.int().check(z.positive()) }))),
});
export type Manifest = z.infer<typeof ManifestSchema>;
