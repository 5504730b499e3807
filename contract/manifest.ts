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
});
export type Manifest = z.infer<typeof ManifestSchema>;
