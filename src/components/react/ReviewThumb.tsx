import { useState } from 'react';

/** The row thumbnail's box (4:3): fixed, so rows never shift while pictures load. */
const THUMB = { width: 80, height: 60 } as const;

/**
 * A queue row's small picture of the post, or a quiet text tile when it has none or the picture
 * fails (signed addresses expire): every row keeps the same column and height either way.
 */
export default function ReviewThumb({ src, author }: { src: string | null; author: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src)
    return (
      <span className="review-row__thumb review-row__thumb--text" aria-hidden="true">
        Aa
      </span>
    );
  return (
    <img
      className="review-row__thumb"
      src={src}
      alt={`Attachment shared by ${author}`}
      width={THUMB.width}
      height={THUMB.height}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(src)}
    />
  );
}
