/**
 * The newest `limit` cards of a stream, in the order threads-recent.json lists them (newest first by
 * timestamp; of equal times, the earlier in the catalogue first; cards without a time last), kept
 * as their JSON. Holds at most `limit` cards, whatever the length of the stream.
 */
export class NewestCards {
  private readonly kept: { time: number; json: string }[] = [];
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Offers the next card of the stream (streams come in catalogue order, so ties keep it). */
  add(timestamp: string | null | undefined, json: string): void {
    const time = timestamp ? Date.parse(timestamp) : -Infinity;
    // After every kept card at least as new: an equal time came earlier in the catalogue.
    let at = this.kept.length;
    while (at > 0 && (this.kept[at - 1]?.time ?? 0) < time) at--;
    if (at >= this.limit) return;
    this.kept.splice(at, 0, { time, json });
    if (this.kept.length > this.limit) this.kept.pop();
  }

  /** The JSON list, as JSON.stringify would write the cards. */
  json(): string {
    return `[${this.kept.map((card) => card.json).join(',')}]`;
  }
}
