/**
 * The one zod every contract schema is built with: `zod/mini` (its functions tree-shake, so an island
 * carries only the checks it uses) in jitless mode. Jitless skips zod's `new Function` probe, which
 * the page CSP refuses and reports even when zod catches the refusal (decision 052).
 */
import { z } from 'zod/mini';

z.config({ jitless: true });

export { z };
