import type { Profile } from '../../../../server/repositories/profiles.ts';
import type { ThreadRow } from '../../../../server/repositories/threads.ts';
import type { User } from '../../../../server/repositories/users.ts';

/** Whole database rows for the view tests: every column, so a mapper reading a new one shows up here. */
export const USER: User = {
  id: '0b7c3d52-7c1e-4f0a-9a51-2f7c1b0c9d11',
  threadsUserId: '17841400000000001',
  threadsUsername: 'maren.makes',
  isAdmin: false,
  reconnectNeeded: false,
  createdAt: new Date('2026-01-02T03:04:05.000Z'),
  lastLoginAt: new Date('2026-02-03T04:05:06.000Z'),
};

export const PROFILE: Profile = {
  userId: USER.id,
  status: 'pending',
  displayUsername: 'maren',
  bio: 'Type and grids.',
  requestedAt: new Date('2026-01-05T10:00:00.000Z'),
  decidedAt: null,
};

export const THREAD: ThreadRow = {
  id: '6f1c1a2e-8a52-4c5b-9d0f-3f2b9c1d7e10',
  shortcode: 'ABC123',
  mediaId: '1790000000000001',
  source: 'public_search',
  status: 'pending',
  query: 'design systems',
  username: 'maren.makes',
  authorName: 'Maren Holt',
  text: 'Spacing scales beat ad-hoc margins.',
  imageUrl: null,
  imageExpiresAt: null,
  topicTag: 'DesignSystems',
  permalink: 'https://www.threads.com/@maren.makes/post/ABC123',
  likes: 12,
  replies: 3,
  postedAt: new Date('2026-11-21T08:00:00.000Z'),
  fetchedAt: new Date('2026-11-21T08:30:00.000Z'),
  ownerUserId: null,
  decidedAt: null,
  decisionReason: null,
  missingSince: null,
  statusBeforeRemoval: null,
  shownAsCard: false,
  createdAt: new Date('2026-11-21T09:00:00.000Z'),
};
