import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Facts about the database itself, e.g. which product version last started on it. Feature tables
 * (users, sessions, threads, ...) arrive with the features that own them.
 */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
