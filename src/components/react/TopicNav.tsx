import { topicPath, type CatalogueTopic } from '../../../contract/topics.ts';

/** The topics a page links in its bar (the biggest, and its own), and how many there are in all. */
export interface TopicNavigation {
  topics: readonly CatalogueTopic[];
  total: number;
}

/** Links to the biggest topics with their thread counts, and to /topics when there are more; the current topic is marked. */
export default function TopicNav({
  navigation: { topics, total },
  current,
}: {
  navigation: TopicNavigation;
  current?: string | undefined;
}) {
  if (topics.length === 0) return null;
  return (
    <nav className="topic-list" aria-label="Topics">
      <ul className="topic-list__items">
        {topics.map((topic) => (
          <li key={topic.slug}>
            <a
              className="topic-list__link"
              href={topicPath(topic.slug)}
              aria-current={topic.slug === current ? 'page' : undefined}
            >
              #{topic.tag}
              <span className="topic-list__count">{topic.count}</span>
            </a>
          </li>
        ))}
        {total > topics.length && (
          <li>
            <a className="topic-list__link topic-list__link--all" href="/topics">
              All {total} topics
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}
