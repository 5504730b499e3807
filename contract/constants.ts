/** Thread lists are fresh in the browser cache for one hour (spec section 9). */
export const THREAD_LIST_CACHE_TTL_MS = 60 * 60 * 1000;

/** Failed thread-list loads are retried 3 times with exponential delay capped at 10 s (spec section 9). */
export const THREAD_FETCH_RETRY = { retries: 3, baseDelayMs: 1000, maxDelayMs: 10_000 } as const;

/**
 * Cards whose images load eagerly: the first row (at most three columns, rows read left to right),
 * the first card being the likely largest paint. The rest load as they near the viewport.
 */
export const EAGER_IMAGE_COUNT = 3;

/** Every image in a card is drawn in a 16:10 frame, so width and height are known before it loads. */
export const CARD_IMAGE_SIZE = { width: 640, height: 400 } as const;
export const AVATAR_SIZE = 40;
