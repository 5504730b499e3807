/** A moment as the visitor's locale writes it, machine-readable in `dateTime`. */
export default function DateTime({ iso, className }: { iso: string; className?: string }) {
  return (
    <time className={className} dateTime={iso}>
      {new Date(iso).toLocaleString()}
    </time>
  );
}
