package dev.metahooks.server.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;

/**
 * The answers of recent hook calls, keyed by controller, hook and a SHA-256 of the request body, bounded by the
 * bytes they hold (a Caffeine cache weighed by each answer's bytes). Hooks are pure functions of the request, so
 * the same bytes in give the same answer out: a resync of an unchanged world (Metacontroller resyncs every parent
 * periodically, and after its own writes) costs a hash of the request instead of a parse, a sync and a write.
 *
 * <p>The one departure from recomputing: where a hook consults {@code Sources} (a generated password while the
 * Secret is not yet observed, a condition's transition time), the cached answer repeats the value computed the
 * first time for these exact bytes. That is what a recomputation would ideally give too: the same password until
 * the Secret exists, and the time the transition was first seen. An answer whose decision depends on the time says
 * so by carrying {@code resyncAfterSeconds} (come back when the maintenance window opens), and is never kept here
 * ({@link CachedAnswers#answer}): replayed, it would hold the world until the bytes change.
 */
final class ResponseCache {
  /** Controller, hook and the request body's SHA-256 (32 bytes), compared by value. */
  record Key(String controller, String hook, Digests.Sha256 digest) {}

  private final long maxEntry;

  /** Null when the cache is off. */
  private final Cache<Key, Reply> entries;

  /** What the statistics held when the warm-up ended: its lookups are not the server's. */
  private volatile CacheStats uncounted = CacheStats.empty();

  /**
   * A cache of at most {@code capacity} bytes; 0 disables it. One entry may take at most half of it: the answer
   * for 10,000 Pods (10 MB) fits the default, and no single answer can flush everything else.
   */
  ResponseCache(long capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("cache capacity must not be negative: " + capacity);
    }
    this.maxEntry = capacity / 2;
    this.entries =
        capacity == 0
            ? null
            : Caffeine.newBuilder()
                .maximumWeight(capacity)
                .weigher(
                    (Key key, Reply reply) -> (int) Math.min(Integer.MAX_VALUE, reply.weight()))
                .executor(
                    Runnable::run) // evict on the calling thread: no pool of its own, and the bound
                // holds at once
                .recordStats()
                .build();
  }

  boolean enabled() {
    return entries != null;
  }

  Reply get(Key key) {
    Reply entry = entries.getIfPresent(key);
    return entry == null ? null : entry.fromCache();
  }

  void put(Key key, Reply entry) {
    if (entry.weight() <= maxEntry) { // one huge answer would flush every other
      entries.put(key, entry);
    }
  }

  /** Bytes held, by the weights of the answers. */
  long bytes() {
    return entries == null ? 0 : entries.policy().eviction().orElseThrow().weightedSize().orElse(0);
  }

  /** Lookups found, not found, and answers evicted, since the start (since {@link #restart}, if called). */
  CacheStats stats() {
    return entries == null ? CacheStats.empty() : entries.stats().minus(uncounted);
  }

  /** Drops every answer; the statistics go on. */
  void clear() {
    if (entries != null) {
      entries.invalidateAll();
    }
  }

  /** Drops every answer and counts lookups from now on, as if the cache had just been made. */
  void restart() {
    clear();
    if (entries != null) {
      uncounted = entries.stats();
    }
  }
}
