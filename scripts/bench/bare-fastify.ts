/**
 * The hot-read reference: a bare Fastify (the product's version) with one route answering a small
 * JSON, logging off. `node scripts/bench/bare-fastify.ts PORT`; prints "listening" when ready.
 */
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const app = Fastify({ logger: false });
app.get('/', async () => ({ status: 'ok' }));
await app.listen({ port, host: '127.0.0.1' });
console.log('listening');
