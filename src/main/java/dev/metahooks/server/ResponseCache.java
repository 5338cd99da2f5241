package dev.metahooks.server;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The answers of recent hook calls, keyed by controller, hook and a SHA-256 of the request body, bounded by the
 * bytes they hold and evicting the least recently used. Hooks are pure functions of the request, so the same
 * bytes in give the same answer out: a resync of an unchanged world (Metacontroller resyncs every parent
 * periodically, and after its own writes) costs a hash of the request instead of a parse, a sync and a write.
 *
 * <p>The one departure from recomputing: where a hook consults {@code Sources} (a generated password while the
 * Secret is not yet observed, a condition's transition time), the cached answer repeats the value computed the
 * first time for these exact bytes. That is what a recomputation would ideally give too: the same password until
 * the Secret exists, and the time the transition was first seen. An answer whose decision depends on the time says
 * so by carrying {@code resyncAfterSeconds} (come back when the maintenance window opens), and is never kept here
 * ({@link HookDispatcher#reply}): replayed, it would hold the world until the bytes change.
 */
final class ResponseCache {
  /** Controller, hook and the request body's SHA-256 (32 bytes), compared by value. */
  record Key(String controller, String hook, Digests.Sha256 digest) {}

  private final long capacity;
  private final long maxEntry;
  private final LinkedHashMap<Key, Reply> entries = new LinkedHashMap<>(256, 0.75f, true);
  private long bytes;
  private long hits;
  private long misses;

  /**
   * A cache of at most {@code capacity} bytes; 0 disables it. One entry may take at most half of it: the answer
   * for 10,000 Pods (10 MB) fits the default, and no single answer can flush everything else.
   */
  ResponseCache(long capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("cache capacity must not be negative: " + capacity);
    }
    this.capacity = capacity;
    this.maxEntry = capacity / 2;
  }

  boolean enabled() {
    return capacity > 0;
  }

  synchronized Reply get(Key key) {
    Reply entry = entries.get(key);
    if (entry == null) {
      misses++;
    } else {
      hits++;
    }
    return entry == null ? null : entry.fromCache();
  }

  synchronized void put(Key key, Reply entry) {
    long weight = entry.weight();
    if (weight > maxEntry) {
      return; // one huge answer would flush every other
    }
    Reply previous = entries.put(key, entry);
    bytes += weight - (previous == null ? 0 : previous.weight());
    Iterator<Map.Entry<Key, Reply>> eldest = entries.entrySet().iterator();
    while (bytes > capacity && eldest.hasNext()) {
      bytes -= eldest.next().getValue().weight();
      eldest.remove();
    }
  }

  synchronized long bytes() {
    return bytes;
  }

  synchronized int size() {
    return entries.size();
  }

  synchronized long hits() {
    return hits;
  }

  synchronized long misses() {
    return misses;
  }
}
