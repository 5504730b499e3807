import Fastify from 'fastify';
import sharp from 'sharp';
import { expect, test } from 'vitest';
import { socialImagePath } from '../../../../../contract/social-image.ts';
import { MAX_WAITING, SocialImages } from '../../../../../server/publisher/serve/social-route.ts';
import type { SocialPictures } from '../../../../../server/services/social-images/social-pictures.ts';

// Every topic exists and says its own slug: the route's rendering and queue are what is tested here.
const pictures: SocialPictures = {
  find: (kind, key) =>
    Promise.resolve(
      kind === 'topic'
        ? { kind: 'Topic', headline: `#${key}`, headlineStyle: 'name', body: '', footer: '' }
        : null,
    ),
};

function appWith(images: SocialImages) {
  const app = Fastify();
  app.get('/*', async (request, reply) => {
    if (await images.answer(request, reply, request.url)) return reply;
    return reply.status(404).send({ detail: 'No such picture.' });
  });
  return app;
}

test('a picture is rendered once for a crowd asking at the same time, then served from memory', async () => {
  let renders = 0;
  const images = new SocialImages(pictures, false, async (svg) => {
    renders += 1;
    return sharp(Buffer.from(svg)).png().toBuffer();
  });
  const app = appWith(images);
  const path = socialImagePath('topic', 'grids');
  const crowd = await Promise.all(Array.from({ length: 5 }, () => app.inject(path)));
  for (const response of crowd) {
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
  }
  expect((await app.inject(path)).statusCode).toBe(200);
  expect(renders).toBe(1);
  expect((await app.inject({ url: path, method: 'HEAD' })).body).toBe('');
  expect((await app.inject(socialImagePath('thread', 'x'))).statusCode).toBe(404);
});

test('two renders at a time, a bounded queue, and a 503 with Retry-After beyond it', async () => {
  const held: (() => void)[] = [];
  let active = 0;
  let most = 0;
  const images = new SocialImages(pictures, false, async () => {
    active += 1;
    most = Math.max(most, active);
    await new Promise<void>((resolve) => held.push(resolve));
    active -= 1;
    return Buffer.from('png');
  });
  const app = appWith(images);
  const total = 2 + MAX_WAITING + 3;
  let finished = 0;
  const answers = Array.from({ length: total }, (_, i) =>
    app.inject(socialImagePath('topic', `t${i}`)).then((response) => {
      finished += 1;
      return response;
    }),
  );
  // The renders are held: only the requests beyond the queue can finish. Once they have, every
  // request has arrived, and the held renders are released one by one.
  for (let turn = 0; finished < total - 2 - MAX_WAITING && turn < 10_000; turn++)
    await new Promise((resolve) => setImmediate(resolve));
  expect(held).toHaveLength(2);
  const release = setInterval(() => held.shift()?.(), 1);
  const responses = await Promise.all(answers);
  clearInterval(release);
  const busy = responses.filter((response) => response.statusCode === 503);
  expect(busy).toHaveLength(3);
  expect(busy[0]?.headers['retry-after']).toBe('5');
  expect(busy[0]?.json()).toEqual({ detail: expect.stringContaining('try again') });
  expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(2 + MAX_WAITING);
  expect(most).toBe(2);
});
