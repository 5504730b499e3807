import type { ReactNode } from 'react';
import { TEXTS } from '../../../contract/texts.ts';

interface Props {
  title: string;
  /** The server's detail, when it gave one. */
  message?: string | undefined;
  onRetry(): void;
  className?: string;
  /** Extra help between the message and the button. */
  children?: ReactNode;
}

/** A load that failed: what failed, why when known, and 'Try Again'. */
export default function LoadFailed({ title, message, onRetry, className, children }: Props) {
  return (
    <div className={className ? `notice notice--error ${className}` : 'notice notice--error'} role="alert">
      <p className="notice__title">{title}</p>
      {message && <p>{message}</p>}
      {children}
      <button type="button" className="button" onClick={onRetry}>
        {TEXTS.tryAgain}
      </button>
    </div>
  );
}
