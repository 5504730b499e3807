import { z } from 'zod';

/** `/data/manifest.json`: when the public catalogue was generated and when the next refresh is due. */
export const ManifestSchema = z.object({
  generatedAt: z.iso.datetime({ offset: true }),
  nextUpdate: z.iso.datetime({ offset: true }),
  counts: z
    .object({
      all: z.number().int().nonnegative(),
      text: z.number().int().nonnegative(),
      images: z.number().int().nonnegative(),
    })
    .optional(),
  /**
   * The full export the pages belong to: browsers key their cached pages by it. Threads approved
   * since (the tail, decision 037) change `head` instead, and the first pages.
   */
  version: z.string().min(1).optional(),
  /** A digest of the tail, the threads approved since the full export (absent: none). */
  head: z.string().min(1).optional(),
  /** Cards per file under /data/pages/. */
  pageSize: z.number().int().positive().optional(),
  /** Every topic tag with approved threads, most threads first. */
  topics: z
    .array(z.object({ tag: z.string().min(1), slug: z.string().min(1), count: z.number().int().positive() }))
    .optional(),
});
export type Manifest = z.infer<typeof ManifestSchema>;
