/**
 * A member's notices by e-mail (issue 22, decision 058): the address they gave, whether they want
 * the mail, and the words the profile and the mailed links' pages say.
 */
import { DigestSubscribeSchema } from './digest.ts';
import { z } from './zod.ts';

/** `PUT /api/user/notice-mail`: the address (checked as the digest's is) and the choice. */
export const NoticeMailSaveSchema = z.strictObject({
  email: DigestSubscribeSchema.shape.email,
  enabled: z.boolean('enabled must be true or false'),
});
export type NoticeMailSave = z.input<typeof NoticeMailSaveSchema>;

/**
 * `GET`, `PUT` and `DELETE /api/user/notice-mail`: what is stored. `available` is false without
 * SMTP_URL (nothing can be mailed, so nothing can be chosen); `address` is null when none is stored.
 */
export const NoticeMailStateSchema = z.object({
  available: z.boolean(),
  address: z.nullable(z.string()),
  enabled: z.boolean(),
  confirmed: z.boolean(),
  /** What just happened, in words, after a PUT or DELETE. */
  message: z.optional(z.string()),
});
export type NoticeMailState = z.infer<typeof NoticeMailStateSchema>;

export const NOTICE_MAIL_TEXTS = {
  heading: 'Notices by e-mail',
  intro:
    'Get an e-mail when a decision reaches you (your invite, your submissions, gems that left). The address is kept only for this.',
  noMail: 'Mail is not set up on this server, so notices can only be read on the site.',
  addressLabel: 'E-mail address',
  enabledLabel: 'Send me my notices by e-mail',
  save: 'Save',
  saving: 'Saving...',
  remove: 'Remove my address',
  removing: 'Removing...',
  loading: 'Loading your notice mail settings...',
  loadFailed: 'Your notice mail settings could not be loaded. Please try again.',
  retry: 'Try again',
  saveFailed: 'Your notice mail settings could not be saved. Please try again.',
  waiting: 'Not confirmed yet: follow the link in the mail we sent to this address.',
  on: 'Confirmed: your notices are mailed to this address.',
  off: 'Confirmed, but turned off: no notices are mailed.',
  none: 'No address is stored.',
  checkInbox:
    'Saved. A message with a link to confirm is on its way to this address (at most one a day). Nothing else is sent until you confirm.',
  saved: 'Saved.',
  removed: 'Your address is deleted.',
  confirmTitle: 'Confirm your address for notices',
  confirmButton: 'Confirm my address',
  confirmed:
    'Your address is confirmed. Your notices will be mailed to it; every mail has a link to stop them.',
  unsubscribeTitle: 'Stop notices by e-mail',
  unsubscribeButton: 'Stop and delete my address',
  unsubscribed: 'No more notices will be mailed, and your address is deleted.',
  badLink: 'This link is not valid (it may have been cut, or the address was changed or removed since).',
} as const;

/** The mail's subject for each kind of notice, in words. */
export const NOTICE_MAIL_SUBJECTS = {
  invite_approved: 'Your invite was approved',
  invite_rejected: 'Your invite request was declined',
  submission_approved: 'Your submission was approved',
  submission_rejected: 'Your submission was declined',
  gem_removed: 'A thread you saved left the catalogue',
} as const;
