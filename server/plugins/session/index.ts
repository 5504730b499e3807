import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import fp from 'fastify-plugin';
import { SESSION_DAYS } from '../../../contract/auth.ts';
import type { Database } from '../../db/client.ts';
import { createSessionsRepository } from '../../repositories/sessions.ts';
import type { User } from '../../repositories/users.ts';

/** The session cookie's name: on https with the __Host- prefix (Secure, this host only, path /). */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-ct_session' : 'ct_session';
}

export interface SessionOptions {
  db: Database;
  sessionSecret: string;
  /** https: the cookie gets Secure and the __Host- prefix. */
  secure: boolean;
}

export interface SessionControl {
  /**
   * Creates a new session for `userId` (a new id at every sign-in) and ends the one the request
   * carried; returns the cookie value, to be sent with `setCookie` once the transaction commits.
   */
  start(request: FastifyRequest, userId: string, tx?: Database): Promise<string>;
  setCookie(reply: FastifyReply, value: string): void;
  /** Ends the request's session on the server and clears the cookie. */
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionControl;
  }
  interface FastifyRequest {
    /** The signed-in user, read once per request from the session cookie; null when signed out. */
    currentUser(): Promise<User | null>;
  }
}

const SESSION_MS = SESSION_DAYS * 24 * 3_600_000;
const userCache = new WeakMap<FastifyRequest, Promise<User | null>>();

/**
 * Server-side sessions: the cookie holds 256 random bits, the database only their HMAC, so a leaked
 * database row cannot be replayed as a cookie.
 */
const sessionPlugin: FastifyPluginAsync<SessionOptions> = async (app, options) => {
  const repository = createSessionsRepository(options.db);
  const cookieName = sessionCookieName(options.secure);
  const hash = (value: string) =>
    createHmac('sha256', options.sessionSecret).update(value).digest('base64url');
  const cookieValue = (request: FastifyRequest) => request.cookies[cookieName];

  app.decorateRequest('currentUser', function (this: FastifyRequest) {
    let user = userCache.get(this);
    if (!user) {
      const value = cookieValue(this);
      user = value ? repository.findUser(hash(value), new Date()) : Promise.resolve(null);
      userCache.set(this, user);
    }
    return user;
  });

  app.decorate('sessions', {
    async start(request, userId, tx) {
      const previous = cookieValue(request);
      if (previous) await repository.delete(hash(previous), tx);
      const value = randomBytes(32).toString('base64url');
      await repository.create(hash(value), userId, new Date(Date.now() + SESSION_MS), tx);
      return value;
    },
    setCookie(reply, value) {
      reply.setCookie(cookieName, value, {
        httpOnly: true,
        sameSite: 'lax',
        secure: options.secure,
        path: '/',
        maxAge: SESSION_MS / 1000,
      });
    },
    async end(request, reply) {
      const value = cookieValue(request);
      if (value) await repository.delete(hash(value));
      reply.clearCookie(cookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: options.secure });
    },
  } satisfies SessionControl);
};

export default fp(sessionPlugin, { name: 'session', dependencies: ['@fastify/cookie'] });
