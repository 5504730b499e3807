import { expect, test } from 'vitest';
import { loadConfig } from '../../../../server/config.ts';
import { buildEnv, siteBuildOptionsFor } from '../../../../server/publisher/build/site-options.ts';

test('the build learns that mail works (the subscribe form shows), never the SMTP settings', () => {
  const withMail = buildEnv(
    siteBuildOptionsFor(loadConfig({ SMTP_URL: 'smtps://mailer:hunter2@smtp.example:465' })),
  );
  expect(withMail.DIGEST_MAIL).toBe('true');
  expect(JSON.stringify(withMail)).not.toContain('hunter2');
  expect(buildEnv(siteBuildOptionsFor(loadConfig({}))).DIGEST_MAIL).toBeUndefined();
});
