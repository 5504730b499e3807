/** A thread id as the catalogue writes it (a UUID); anything else is asked of nobody. */
const THREAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a card's id can have a page: a thread of the database. The committed sample's cards
 * ('sample-000001', shown while nothing is approved) have none, so their cards link to none.
 */
export function hasThreadPage(id: string): boolean {
  return THREAD_ID.test(id);
}

/** Where a thread's page lives (decision 046). `id` is the catalogue card's id. */
export function threadPath(id: string): string {
  return `/thread/${encodeURIComponent(id)}`;
}

/**
 * The named placeholders of the thread page's template: the build writes them where the values go,
 * the server replaces each with its value escaped for that place (text, attribute or URL).
 */
export const THREAD_SLOTS = {
  title: '__CT_TITLE__',
  description: '__CT_DESCRIPTION__',
  author: '__CT_AUTHOR__',
  handle: '__CT_HANDLE__',
  avatar: '__CT_AVATAR__',
  profileUrl: '__CT_PROFILE_URL__',
  text: '__CT_TEXT__',
  dateIso: '__CT_DATE_ISO__',
  date: '__CT_DATE__',
  permalink: '__CT_PERMALINK__',
  imageUrl: '__CT_IMAGE_URL__',
  imageAlt: '__CT_IMAGE_ALT__',
  topicTag: '__CT_TOPIC_TAG__',
  topicUrl: '__CT_TOPIC_URL__',
  relatedUrl: '__CT_RELATED_URL__',
  relatedAuthor: '__CT_RELATED_AUTHOR__',
  relatedExcerpt: '__CT_RELATED_EXCERPT__',
  relatedDateIso: '__CT_RELATED_DATE_ISO__',
  relatedDate: '__CT_RELATED_DATE__',
  /** Where the filled optional parts go, each a slot in the page's text. */
  imagePart: '__CT_PART_IMAGE__',
  topicPart: '__CT_PART_TOPIC__',
  relatedPart: '__CT_PART_RELATED__',
  relatedItems: '__CT_PART_RELATED_ITEMS__',
} as const;

/**
 * The optional and repeated parts, each written once inside `<template data-ct-part="name">`:
 * the server takes them out of the page and fills a copy per use (none, one, or one per related thread).
 */
export const THREAD_PARTS = ['image', 'topic', 'related', 'related-item'] as const;
export type ThreadPart = (typeof THREAD_PARTS)[number];

/** How many related threads a page lists. */
export const RELATED_THREADS = 4;
