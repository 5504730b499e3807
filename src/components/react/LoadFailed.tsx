import type { ReactNode, Ref } from 'react';
import { TEXTS } from '../../../contract/texts.ts';

interface Props {
  title: string;
  /** The server's detail, when it gave one. */
  message?: string | undefined;
  onRetry(): void;
  className?: string;
  /** Extra help between the message and the button. */
  children?: ReactNode;
  /** For a caller that hands the focus to 'Try Again' (the control that had it is gone). */
  retryRef?: Ref<HTMLButtonElement> | undefined;
}

/** A load that failed: what failed, why when known, and 'Try Again'. */
export default function LoadFailed({ title, message, onRetry, className, children, retryRef }: Props) {
  return (
    <div className={className ? `notice notice--error ${className}` : 'notice notice--error'} role="alert">
      <p className="notice__title">{title}</p>
      {message && <p>{message}</p>}
      {children}
      <button type="button" className="button" onClick={onRetry} ref={retryRef}>
        {TEXTS.tryAgain}
      </button>
    </div>
  );
}
