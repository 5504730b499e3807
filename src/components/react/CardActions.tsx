import { AUTHOR_TEXTS, YOUR_POSTS_PATH } from '../../../contract/authors.ts';
import GemButton from './GemButton.tsx';

/**
 * What every catalogue card ends with, a card or an embed: 'Is this your post?' (authors in control,
 * decision 028) and the gem button, whose slot is reserved before it knows who is signed in.
 */
export default function CardActions({ threadId }: { threadId: string }) {
  return (
    <>
      <a className="thread-card__yours" href={YOUR_POSTS_PATH}>
        {AUTHOR_TEXTS.link}
      </a>
      <GemButton threadId={threadId} />
    </>
  );
}
