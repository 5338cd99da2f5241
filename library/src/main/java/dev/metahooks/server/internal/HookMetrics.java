package dev.metahooks.server.internal;

import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Prometheus metrics: per controller and hook, {@code metahooks_hook_requests_total} by outcome and the
 * latency histogram {@code metahooks_hook_duration_seconds}; plus JVM and process basics.
 * Requests for unknown paths count under controller and hook {@code unknown}, so a scanner cannot grow
 * the number of series.
 */
public final class HookMetrics implements AutoCloseable {
  public static final String UNKNOWN = "unknown";

  /**
   * The latency histogram's bucket bounds, a handful chosen for a hook server: most answers take well under 5 ms
   * (docs/performance.md), a large world tens to hundreds of milliseconds, and 5 s is the default deadline
   * (METAHOOKS_HOOK_DEADLINE_MS), past which a call is answered 503. Each bound is a series per hook, so a few.
   */
  static final List<Duration> LATENCY_BUCKETS =
      List.of(
          Duration.ofMillis(1),
          Duration.ofMillis(5),
          Duration.ofMillis(25),
          Duration.ofMillis(100),
          Duration.ofMillis(250),
          Duration.ofSeconds(1),
          Duration.ofMillis(2500),
          Duration.ofSeconds(5));

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

  /**
   * The JVM binders and the per-hook series are registered on a thread of their own: they take a fifth of the
   * start-up time, which the server spends starting Jetty meanwhile. A scrape waits for them.
   */
  private final CompletableFuture<Void> registered;

  private final ConcurrentMap<Series, Meters> meters = new ConcurrentHashMap<>();

  public HookMetrics(List<Controller> controllers) {
    registered =
        CompletableFuture.runAsync(
            () -> registerAll(controllers),
            runnable -> {
              Thread thread = new Thread(runnable, "metrics-setup");
              thread.setDaemon(true);
              thread.start();
            });
  }

  private void registerAll(List<Controller> controllers) {
    new JvmMemoryMetrics().bindTo(registry);
    gcMetrics.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    Gauge.builder("metahooks.build.info", () -> 1)
        .tag("version", BuildInfo.version())
        .description("The running build: always 1, its version a label")
        .register(registry);
    // Register every served hook up front so dashboards and alerts see zeros rather than gaps.
    for (Controller controller : controllers) {
      for (Hook hook : controller.hooks()) {
        timer(controller.name(), hook.path());
        counter(controller.name(), hook.path(), "ok");
        unwrittenCounter(controller.name(), hook.path());
      }
    }
  }

  /** The response cache: bytes held, calls answered from it or not, answers evicted (Caffeine's statistics). */
  public void watchCache(CachedAnswers answers) {
    Gauge.builder("metahooks.response.cache.bytes", answers, CachedAnswers::cacheBytes)
        .description("Bytes of answers held by the response cache")
        .baseUnit("bytes")
        .register(registry);
    FunctionCounter.builder(
            "metahooks.response.cache.lookups", answers, a -> a.cacheStats().hitCount())
        .description("Response cache lookups by result")
        .tag("result", "hit")
        .register(registry);
    FunctionCounter.builder(
            "metahooks.response.cache.lookups", answers, a -> a.cacheStats().missCount())
        .description("Response cache lookups by result")
        .tag("result", "miss")
        .register(registry);
    FunctionCounter.builder(
            "metahooks.response.cache.evictions", answers, a -> a.cacheStats().evictionCount())
        .description("Answers the response cache dropped to stay within its bytes")
        .register(registry);
  }

  /** Hook calls in flight: being read, run or written. */
  public void watchActive(AtomicInteger active) {
    Gauge.builder("metahooks.hook.calls.active", active, AtomicInteger::get)
        .description("Hook calls being read, run or written")
        .register(registry);
  }

  /** Request-body bytes admitted and held in memory (METAHOOKS_BODY_BUDGET_BYTES bounds it). */
  public void watchBodyBudget(LongSupplier bytesInUse) {
    // Held strongly: a gauge keeps its object weakly, and the method reference given here has no
    // other holder, so
    // the first full collection would turn the gauge into NaN.
    Gauge.builder("metahooks.body.budget.used.bytes", bytesInUse, LongSupplier::getAsLong)
        .strongReference(true)
        .description("Request-body bytes held in memory by admitted hook calls")
        .baseUnit("bytes")
        .register(registry);
  }

  /** Recordings written to METAHOOKS_RECORD_DIR, and sampled calls not recorded, by reason. */
  public void watchRecorder(Recorder recorder) {
    FunctionCounter.builder("metahooks.recordings.written", recorder, Recorder::written)
        .description("Hook calls recorded to METAHOOKS_RECORD_DIR")
        .register(registry);
    for (Recorder.Drop reason : Recorder.Drop.values()) {
      FunctionCounter.builder("metahooks.recordings.dropped", recorder, r -> r.dropped(reason))
          .description("Sampled hook calls not recorded, by reason")
          .tag("reason", reason.tag)
          .register(registry);
    }
  }

  /** An answer the client did not take (gone, or not reading within the write timeout). */
  public void unwritten(String controller, String hook) {
    unwrittenCounter(controller, hook).increment();
  }

  private Counter unwrittenCounter(String controller, String hook) {
    return Counter.builder("metahooks.hook.answers.unwritten")
        .description("Hook answers that could not be written to the client")
        .tag("controller", controller)
        .tag("hook", hook)
        .register(registry);
  }

  public void record(String controller, String hook, String outcome, Duration elapsed) {
    Meters meters =
        this.meters.computeIfAbsent(
            new Series(controller, hook, outcome),
            s -> new Meters(counter(s.controller, s.hook, s.outcome), timer(s.controller, s.hook)));
    meters.calls.increment();
    meters.duration.record(elapsed);
  }

  /** The series of one controller, hook and outcome. */
  private record Series(String controller, String hook, String outcome) {}

  /** Its meters, looked up once: a registry lookup builds an id and sorts its tags, on every call otherwise. */
  private record Meters(Counter calls, Timer duration) {}

  public String scrape() {
    registered.join();
    return registry.scrape();
  }

  private Counter counter(String controller, String hook, String outcome) {
    return Counter.builder("metahooks.hook.requests")
        .description("Hook calls by controller, hook and outcome")
        .tag("controller", controller)
        .tag("hook", hook)
        .tag("outcome", outcome)
        .register(registry);
  }

  private Timer timer(String controller, String hook) {
    return Timer.builder("metahooks.hook.duration")
        .description(
            "Time to answer a hook call, from the first byte read to the last byte written")
        .tag("controller", controller)
        .tag("hook", hook)
        .serviceLevelObjectives(LATENCY_BUCKETS.toArray(Duration[]::new))
        .register(registry);
  }

  @Override
  public void close() {
    registered.join();
    gcMetrics.close();
    registry.close();
  }
}
