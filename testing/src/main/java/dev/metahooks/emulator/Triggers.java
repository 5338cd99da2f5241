package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * When Metacontroller v4.17.2 syncs a parent: on a watch event of the parent (filtered by
 * {@code ignoreStatusChanges}, composite/controller.go:411-436, decorator/controller.go likewise), of one of its
 * children or attachments or an orphan its selector matches, or of an object its related rules select
 * (customize/manager.go); when a {@code resyncAfterSeconds} it asked for is due (controller.go:670-673) or the
 * informer's {@code resyncPeriodSeconds} (at least 1 s, controller.go:274-281; none of its own from 30 minutes on,
 * informer.go:284-288) comes round on the cluster's clock; after a failed sync (the rate limiter's retry, see
 * {@link #failed}) or at the {@code Retry-After} of a 429. Its own writes are events too. The intended profile keeps syncing every parent every round.
 */
final class Triggers {
  /** What is known of one parent between syncs. */
  private static final class State {
    long seen;

    /** The last write of children and related objects the parent's last sync could read (they may lag). */
    long seenCached;

    Instant resyncAt;
    long ticksSeen;

    /** Failed syncs since the last one that succeeded (the rate limiter's count for this parent). */
    int failures;

    /** When the rate-limited retry of a failed sync comes due. */
    Instant retryAt;

    /** {@code controller Kind namespace/name}, for messages. */
    String parent = "";

    long relist;
    Predicate<ObjectNode> related = object -> false;
  }

  private final Metacontroller mc;
  private final Map<String, State> states = new HashMap<>();

  /** The rate limiter's bucket per controller (one work queue each), by controller name. */
  private final Map<String, Bucket> buckets = new HashMap<>();

  /** One resync ticker per controller, by controller name. */
  private final Map<String, Ticker> tickers = new HashMap<>();

  private long relists;

  /**
   * The informers' own resync, {@code --cache-flush-interval} (30 minutes by default, pkg/cmd/metacontroller/
   * main.go:46, given to the informer factories in pkg/controller/common/common.go:104-112): every parent
   * re-delivered, and so synced; children and related objects re-delivered unchanged are ignored. From the first
   * round on the cluster's clock.
   */
  private Ticker cacheFlush;

  private static final Duration CACHE_FLUSH_INTERVAL = Duration.ofMinutes(30);

  /** Relists asked for plus the cache flushes so far. */
  private long relists() {
    Instant now = mc.cluster().now();
    if (cacheFlush == null) {
      cacheFlush = new Ticker(CACHE_FLUSH_INTERVAL, now);
    }
    return relists + cacheFlush.ticksAt(now);
  }

  /**
   * The informer's resync for {@code resyncPeriodSeconds}: one period for the controller's parent handler, from
   * when the controller started, re-delivering every parent at once (composite/controller.go:274-281,
   * AddEventHandlerWithResyncPeriod), not a period per parent since its last sync.
   */
  private static final class Ticker {
    final Duration period;
    Instant next;
    long ticks;

    Ticker(Duration period, Instant start) {
      this.period = period;
      this.next = start.plus(period);
    }

    long ticksAt(Instant now) {
      while (!now.isBefore(next)) {
        ticks++;
        next = next.plus(period);
      }
      return ticks;
    }
  }

  /**
   * The controller's ticks so far; its ticker starts on first use. None without {@code resyncPeriodSeconds}, and
   * none for a period of 30 minutes or more: Metacontroller's shared informer gives a handler its own timer only
   * when its period is shorter than the informer's relist ({@code --cache-flush-interval}), and leaves longer ones
   * to that relist (pkg/dynamic/informer/informer.go:284-288, addHandler), which {@link #cacheFlush} models.
   */
  private long ticks(ControllerLoop loop) {
    long period = loop.controller.path("spec").path("resyncPeriodSeconds").asLong(0);
    if (period == 0
        || Duration.ofSeconds(Math.max(1, period)).compareTo(CACHE_FLUSH_INTERVAL) >= 0) {
      return 0;
    }
    Instant now = mc.cluster().now();
    return tickers
        .computeIfAbsent(loop.name, k -> new Ticker(Duration.ofSeconds(Math.max(1, period)), now))
        .ticksAt(now);
  }

  Triggers(Metacontroller mc) {
    this.mc = mc;
  }

  private static String key(ControllerLoop loop, ObjectNode parent) {
    return loop.name + "|" + Meta.uid(parent);
  }

  /** Whether the parent is synced this round. */
  boolean due(ControllerLoop loop, ObjectNode parent) {
    if (!mc.profile().faithful()) {
      return true;
    }
    State state = states.get(key(loop, parent));
    Instant now = mc.cluster().now();
    if (state == null
        || state.relist < relists()
        || (state.retryAt != null && !now.isBefore(state.retryAt))) {
      return true;
    }
    if ((state.resyncAt != null && !now.isBefore(state.resyncAt))
        || state.ticksSeen < ticks(loop)) {
      return true;
    }
    long cached = mc.cache().lastSequence();
    for (Write write : mc.cluster().writesAfter(Math.min(state.seen, state.seenCached))) {
      if (ownWrite(parent, write)
          ? write.sequence() > state.seen && parentEvent(loop, write)
          : write.sequence() > state.seenCached
              && write.sequence() <= cached
              && triggers(loop, parent, write, state)) {
        return true;
      }
    }
    return false;
  }

  private static boolean ownWrite(ObjectNode parent, Write write) {
    ObjectNode object = write.after() != null ? write.after() : write.before();
    return object != null && Meta.uid(object).equals(Meta.uid(parent));
  }

  private static boolean parentEvent(ControllerLoop loop, Write write) {
    ObjectNode object = write.after() != null ? write.after() : write.before();
    return !(loop.ignoresStatusChanges(object) && statusOnly(write));
  }

  /** A sync starts: everything written so far is what it reads. */
  void starting(ControllerLoop loop, ObjectNode parent) {
    State state = states.computeIfAbsent(key(loop, parent), k -> new State());
    Instant now = mc.cluster().now();
    state.seen = mc.cluster().lastSequence();
    state.seenCached = mc.cache().lastSequence();
    state.retryAt = null;
    state.relist = relists();
    if (state.resyncAt != null && !now.isBefore(state.resyncAt)) {
      state.resyncAt = null;
    }
    state.ticksSeen = ticks(loop);
  }

  /** Every parent is synced in the next round, as after an informer relist or a Metacontroller restart. */
  void relist() {
    relists++;
  }

  void resyncAfter(ControllerLoop loop, ObjectNode parent, double seconds) {
    State state = states.computeIfAbsent(key(loop, parent), k -> new State());
    Instant at = mc.cluster().now().plusNanos((long) (seconds * 1e9));
    state.resyncAt = state.resyncAt == null || at.isBefore(state.resyncAt) ? at : state.resyncAt;
  }

  /**
   * A failed sync: retried after the delay client-go's default controller rate limiter gives, the larger of 5 ms
   * doubling per failure up to 1000 s and the controller's bucket of 10 per second with a burst of 100
   * (workqueue.DefaultTypedControllerRateLimiter, from composite/controller.go:205-207 and :377), on the
   * cluster's clock. An event still syncs the parent at once, as queue.Add does.
   */
  void failed(ControllerLoop loop, ObjectNode parent) {
    State state = states.computeIfAbsent(key(loop, parent), k -> new State());
    state.parent = loop.name + " " + Meta.describe(parent);
    double exponential = Math.min(0.005 * Math.pow(2, state.failures), 1000);
    state.failures++;
    Instant now = mc.cluster().now();
    double bucket = buckets.computeIfAbsent(loop.name, k -> new Bucket(now)).reserve(now);
    state.retryAt = now.plusNanos((long) (Math.max(exponential, bucket) * 1e9));
  }

  /** A sync that succeeded: the rate limiter forgets the parent's failures (queue.Forget). */
  void succeeded(ControllerLoop loop, ObjectNode parent) {
    State state = states.get(key(loop, parent));
    if (state != null) {
      state.failures = 0;
    }
  }

  /** The parents whose rate-limited retry has not come yet, with when it comes. */
  Map<String, Instant> pendingRetries() {
    Map<String, Instant> pending = new java.util.TreeMap<>();
    states
        .values()
        .forEach(
            state -> {
              if (state.retryAt != null) {
                pending.put(state.parent, state.retryAt);
              }
            });
    return pending;
  }

  /** rate.NewLimiter(10, 100): a token a failure, 10 tokens a second back, 100 at most. */
  private static final class Bucket {
    double tokens = 100;
    Instant last;

    Bucket(Instant start) {
      last = start;
    }

    /** Takes a token and returns how long, in seconds, its holder must wait for it. */
    double reserve(Instant now) {
      if (now.isAfter(last)) {
        tokens = Math.min(100, tokens + Duration.between(last, now).toNanos() / 1e9 * 10);
        last = now;
      }
      tokens -= 1;
      return tokens >= 0 ? 0 : -tokens / 10;
    }
  }

  /**
   * Which objects the parent's related rules select: an event of one, in its old or its new state, is an event
   * for the parent (notifyRelatedParents, customize/manager.go:310-351).
   */
  void related(ControllerLoop loop, ObjectNode parent, Predicate<ObjectNode> selects) {
    states.computeIfAbsent(key(loop, parent), k -> new State()).related = selects;
  }

  private static boolean triggers(
      ControllerLoop loop, ObjectNode parent, Write write, State state) {
    ObjectNode object = write.after() != null ? write.after() : write.before();
    if (object == null) {
      return false;
    }
    if ((write.before() != null && state.related.test(write.before()))
        || (write.after() != null && state.related.test(write.after()))) {
      return true;
    }
    String groupKind = ApiResources.group(Meta.apiVersion(object)) + "/" + Meta.kind(object);
    return loop.childKinds().contains(groupKind) && childEvent(loop, parent, write);
  }

  /**
   * A child event as composite/controller.go:475-553 takes it: an add or update by the object's current state
   * (its controller's parent, or for an orphan not being deleted the parents whose selector matches it), a delete
   * by its controller only.
   */
  private static boolean childEvent(ControllerLoop loop, ObjectNode parent, Write write) {
    boolean deleted = write.verb() == Write.Verb.DELETE;
    ObjectNode current = deleted ? write.before() : write.after();
    JsonNode ref = Meta.controllerRef(current);
    if (ref != null) {
      return ref.path("uid").asText().equals(Meta.uid(parent));
    }
    return !deleted && !Meta.deleting(current) && loop.mayAdopt(parent, current);
  }

  /** An update that changes neither generation, labels, annotations nor adds a deletionTimestamp. */
  private static boolean statusOnly(Write write) {
    if (write.verb() == Write.Verb.UPDATE_STATUS) {
      return true;
    }
    if (write.verb() != Write.Verb.UPDATE || write.before() == null || write.after() == null) {
      return false;
    }
    return Meta.generation(write.before()) == Meta.generation(write.after())
        && Objects.equals(Meta.labels(write.before()), Meta.labels(write.after()))
        && Objects.equals(Meta.annotations(write.before()), Meta.annotations(write.after()))
        && !Meta.deleting(write.after());
  }
}
