import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes a new SQL migration after a change to server/db/schema*.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./server/db/schema.ts', './server/db/schema-messages.ts'],
  out: './server/db/migrations',
});
