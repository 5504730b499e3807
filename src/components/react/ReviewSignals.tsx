import {
  authorHistoryChip,
  duplicateChip,
  groupedChip,
  highlightParts,
  REVIEW_SIGNAL_TEXTS as S,
  scoreChip,
  type ReviewSignals as Signals,
} from '../../../contract/review-signals.ts';

/** The queue item's signals as chips in words (decision 055): history, duplicates, score and its reasons. */
export default function ReviewSignals({ signals }: { signals: Signals }) {
  return (
    <ul className="review-signals" aria-label="What helps decide">
      <li className="review-signals__chip review-signals__chip--history">{authorHistoryChip(signals)}</li>
      {signals.duplicates.map((duplicate) => (
        <li key={duplicate.thread_id} className="review-signals__chip review-signals__chip--duplicate">
          {duplicate.url ? <a href={duplicate.url}>{duplicateChip(duplicate)}</a> : duplicateChip(duplicate)}
        </li>
      ))}
      {signals.grouped > 0 && (
        <li className="review-signals__chip review-signals__chip--grouped">{groupedChip(signals.grouped)}</li>
      )}
      <li className="review-signals__chip review-signals__chip--score" title={S.scoreLabel}>
        {scoreChip(signals.score)}
      </li>
      {signals.score_reasons.map((reason) => (
        <li key={reason} className="review-signals__chip review-signals__chip--reason">
          {reason}
        </li>
      ))}
    </ul>
  );
}

/** The item's text with the words of the keyword or tag that found it in <mark>, as text nodes. */
export function ReviewHighlight({ text, query }: { text: string; query: string | null | undefined }) {
  return (
    <>
      {highlightParts(text, query).map((part, index) =>
        part.mark ? <mark key={index}>{part.text}</mark> : part.text,
      )}
    </>
  );
}
