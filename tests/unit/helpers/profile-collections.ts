/** A member who has saved nothing and posted nothing approved: the collections of a published profile. */
export const NO_COLLECTIONS = {
  gems: [],
  own_threads: [],
  gem_cards: [],
  thread_cards: [],
  gem_count: 0,
  thread_count: 0,
};
