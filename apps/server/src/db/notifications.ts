import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Subscriber = {
  /** One payload sent on the channel (by a trigger or pg_notify), after its transaction committed. */
  onMessage: (payload: string) => void;
  /**
   * The listening connection was lost or replaced: notifications may have been missed, so
   * everything learned before must be dropped.
   */
  onReset: () => void;
};

/**
 * LISTEN/NOTIFY of the database, with a freshness bound: `freshThrough()` is a time (ms of
 * performance.now()) such that every notification of a transaction that committed before it has
 * been delivered to the subscribers. A reader that trusts what notifications keep up to date may
 * use it while `performance.now() - freshThrough()` stays under its bound.
 */
export type Notifications = {
  subscribe: (channel: string, subscriber: Subscriber) => () => void;
  freshThrough: () => number;
  close: () => Promise<void>;
};

/**
 * PGlite runs in this process and delivers a notification before the statement that committed it
 * returns, so what was delivered is always current; it cannot lose its connection.
 */
export function pgliteNotifications(client: PGlite): Notifications {
  const unlisten: Array<() => Promise<void>> = [];
  let closed = false;
  return {
    subscribe(channel, subscriber) {
      let stop: (() => Promise<void>) | undefined;
      let cancelled = false;
      const listening = client.listen(channel, subscriber.onMessage).then((s) => {
        stop = s;
        if (cancelled) void s().catch(() => {});
        else unlisten.push(s);
      });
      void listening.catch(() => {});
      return () => {
        cancelled = true;
        if (stop && !closed) void stop().catch(() => {});
      };
    },
    freshThrough: () => performance.now(),
    async close() {
      closed = true;
      for (const s of unlisten.splice(0)) await s().catch(() => {});
    },
  };
}

export type PgNotificationsOptions = {
  connectionString: string;
  /** How often the listening connection proves it is alive and caught up (default 200 ms). */
  heartbeatMs?: number;
  /** A heartbeat unanswered this long means a dead connection: it is dropped and opened again. */
  deadAfterMs?: number;
  log?: { warn: (details: Record<string, unknown>, message: string) => void };
};

/**
 * One dedicated connection per process that LISTENs (opened on the first subscription). Every
 * `heartbeatMs` it sends itself a notification on a channel of its own: PostgreSQL delivers the
 * notifications of different transactions in commit order, so when the heartbeat sent at time T
 * comes back, every change committed before T has been delivered, and `freshThrough()` moves to T.
 * When the connection fails or a heartbeat stays unanswered, subscribers are reset and the
 * connection is opened again (with backoff).
 */
export function pgNotifications(opts: PgNotificationsOptions): Notifications {
  const heartbeatMs = opts.heartbeatMs ?? 200;
  const deadAfterMs = opts.deadAfterMs ?? 2_000;
  const heartbeatChannel = `portal_heartbeat_${randomBytes(6).toString('hex')}`;
  const channels = new Map<string, Set<Subscriber>>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let listening = false;
  let fresh = -Infinity;
  /** Heartbeats in flight: sequence number -> time sent. */
  const pending = new Map<number, number>();
  let seq = 0;
  let retryMs = 250;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const quoted = (channel: string) => `"${channel.replace(/"/g, '""')}"`;

  function resetAll() {
    for (const subs of channels.values()) for (const s of subs) s.onReset();
  }

  function lost(c: pg.Client, err?: unknown) {
    if (client !== c) return;
    client = undefined;
    listening = false;
    fresh = -Infinity;
    pending.clear();
    c.removeAllListeners('notification');
    c.on('error', () => {});
    void c.end().catch(() => {});
    resetAll();
    if (closed) return;
    opts.log?.warn({ err }, 'the database notification connection was lost; cached license state is dropped until it is back');
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void ensureConnected();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, 5_000);
  }

  function ensureConnected(): Promise<void> {
    if (closed || client || channels.size === 0) return Promise.resolve();
    return (connecting ??= (async () => {
      const c = new pg.Client({
        connectionString: opts.connectionString,
        application_name: 'portal-notifications',
        connectionTimeoutMillis: 5_000,
        keepAlive: true,
        keepAliveInitialDelayMillis: 5_000,
      });
      client = c;
      c.on('error', (err) => lost(c, err));
      c.on('end', () => lost(c));
      c.on('notification', (msg) => {
        if (msg.channel === heartbeatChannel) {
          const sentAt = pending.get(Number(msg.payload));
          if (sentAt === undefined) return;
          // Older heartbeats are answered too: notifications arrive in commit order.
          for (const k of pending.keys()) if (k <= Number(msg.payload)) pending.delete(k);
          if (sentAt > fresh) fresh = sentAt;
          return;
        }
        const subs = channels.get(msg.channel);
        if (subs) for (const s of subs) s.onMessage(msg.payload ?? '');
      });
      try {
        await c.connect();
        for (const channel of [...channels.keys(), heartbeatChannel]) await c.query(`LISTEN ${quoted(channel)}`);
        if (client !== c) return;
        listening = true;
        retryMs = 250;
        // Whatever subscribers held was learned without this connection: start from nothing.
        resetAll();
        heartbeat();
      } catch (err) {
        lost(c, err);
      }
    })().finally(() => {
      connecting = undefined;
    }));
  }

  function heartbeat() {
    const c = client;
    if (!c || !listening) return;
    const now = performance.now();
    const oldest = pending.values().next();
    if (!oldest.done && now - oldest.value > deadAfterMs) return lost(c, new Error('heartbeat unanswered'));
    const n = ++seq;
    pending.set(n, now);
    c.query('select pg_notify($1, $2)', [heartbeatChannel, String(n)]).catch((err: unknown) => lost(c, err));
  }

  const heartbeatTimer = setInterval(heartbeat, heartbeatMs);
  heartbeatTimer.unref();

  return {
    subscribe(channel, subscriber) {
      let subs = channels.get(channel);
      if (!subs) {
        channels.set(channel, (subs = new Set()));
        // A channel added to a live connection is listened to at once (rare: one channel today).
        if (client && listening) void client.query(`LISTEN ${quoted(channel)}`).catch((err: unknown) => lost(client!, err));
      }
      subs.add(subscriber);
      void ensureConnected();
      return () => {
        subs.delete(subscriber);
      };
    },
    freshThrough: () => (listening ? fresh : -Infinity),
    async close() {
      closed = true;
      clearInterval(heartbeatTimer);
      if (retryTimer) clearTimeout(retryTimer);
      await connecting?.catch(() => {});
      const c = client;
      client = undefined;
      listening = false;
      if (c) {
        c.removeAllListeners('end');
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}
