package dev.metahooks.server;

import io.javalin.http.Context;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One admitted hook call, within its deadline: what can be refused from the headers alone is refused at once; then
 * admission ({@link Admission}: the body's bytes and a hook slot, or 429); then, on a hook thread, the body, a
 * compute slot and the dispatcher. A call not answered within the deadline gets 503 (Metacontroller retries,
 * nothing is applied).
 */
final class HookCalls implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HookServer.class);
  /** What a body of unknown length (chunked) takes of the budget at first; it takes more as it grows. */
  private static final long CHUNKED_START = 64 * 1024;

  private final ServerConfig config;
  private final HookDispatcher dispatcher;
  private final Admission admission;
  private final Recorder recorder;
  private final RequestBodies bodies;
  private final BooleanSupplier draining;
  /**
   * Of the admitted calls, how many parse, run and write at once ({@link ServerConfig#computeSlots}); each running
   * call holds its request as a tree: eight 4 MB requests at once made the collector copy 100 MB of trees on
   * every young collection, and throughput fell from 16 to 7 calls a second (docs/performance.md).
   */
  private final Semaphore computeSlots;
  private final ExecutorService workers;

  HookCalls(ServerConfig config, HookDispatcher dispatcher, Admission admission, RequestBodies bodies,
      Recorder recorder, BooleanSupplier draining) {
    this.config = config;
    this.dispatcher = dispatcher;
    this.admission = admission;
    this.bodies = bodies;
    this.recorder = recorder;
    this.draining = draining;
    this.computeSlots = new Semaphore(config.computeSlots(), true);
    AtomicInteger threads = new AtomicInteger();
    this.workers = Executors.newFixedThreadPool(config.maxConcurrentHooks(), r -> {
      Thread thread = new Thread(r, "hook-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Admission, then the work on a hook thread within the deadline. */
  Exchange call(Context ctx, String controller, String hook) {
    if (draining.getAsBoolean()) {
      LOG.atDebug().addKeyValue("controller", controller).addKeyValue("hook", hook).log("draining: 503");
      return Exchange.unread(shuttingDown("the server is shutting down; retry"));
    }
    String contentType = ctx.contentType();
    if (contentType != null && !isJson(contentType)) {
      return Exchange.unread(new HookError(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          "Content-Type must be application/json, got '" + contentType + "'"));
    }
    long declared = ctx.req().getContentLengthLong(); // a long: an int says -1 above 2^31
    if (declared > config.maxBodyBytes()) {
      return Exchange.unread(HookError.from(new BodyTooLargeException(config.maxBodyBytes())));
    }
    long arrived = System.nanoTime();
    Admission.Ticket ticket;
    try {
      ticket = admission.admit(declared >= 0 ? declared : Math.min(CHUNKED_START, config.maxBodyBytes()));
    } catch (Admission.Refused e) {
      LOG.atDebug().addKeyValue("controller", controller).addKeyValue("hook", hook)
          .addKeyValue("waitedMs", (System.nanoTime() - arrived) / 1_000_000).log("not admitted in time: 429");
      return Exchange.unread(HookError.from(e));
    }
    LOG.atDebug().addKeyValue("controller", controller).addKeyValue("hook", hook)
        .addKeyValue("waitedMs", (System.nanoTime() - arrived) / 1_000_000).addKeyValue("bodyBytes", declared)
        .log("admitted to a hook slot");
    Future<Exchange> call;
    ticket.hold(); // by the worker, from now until its work has ended
    try {
      call = workers.submit(() -> {
        try {
          return answer(ctx, controller, hook, ticket);
        } finally {
          ticket.release(); // even after a deadline answer: the slot bounds real work
        }
      });
    } catch (RuntimeException e) {
      ticket.release();
      return Exchange.unread(shuttingDown("the server is shutting down; retry"), ticket);
    }
    try {
      long left = config.hookDeadline().toNanos() - (System.nanoTime() - arrived);
      return call.get(Math.max(left, 0), TimeUnit.NANOSECONDS).holding(ticket);
    } catch (TimeoutException e) {
      call.cancel(true);
      return Exchange.abandoned(new HookError(ErrorCode.DEADLINE_EXCEEDED, "no answer within "
          + config.hookDeadline().toMillis() + " ms; retry"), ticket);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Exchange.abandoned(shuttingDown("interrupted; retry"), ticket);
    } catch (ExecutionException e) {
      HookServer.exitOnOutOfMemory(e.getCause());
      LOG.atError().addKeyValue("controller", controller).addKeyValue("hook", hook)
          .addKeyValue("error", e.getCause().toString()).log("hook call failed");
      return Exchange.abandoned(HookError.from(e.getCause()), ticket);
    }
  }

  /** The body first, under the byte budget; then a compute slot, so that a trickled body holds none. */
  private Exchange answer(Context ctx, String controller, String hook, Admission.Ticket ticket) {
    byte[] body;
    try {
      body = bodies.read(ctx, ticket);
    } catch (IOException | BodyTooLargeException | Admission.Refused e) { // the stream failed, too large, no room
      return Exchange.unread(HookError.from(e));
    }
    try {
      computeSlots.acquire();
    } catch (InterruptedException e) { // the deadline passed while waiting: the caller has answered 503
      Thread.currentThread().interrupt();
      return Exchange.unread(new HookError(ErrorCode.DEADLINE_EXCEEDED, "no answer in time; retry"));
    }
    try {
      Reply reply = dispatcher.reply(controller, hook, body);
      recorder.offer(controller, hook, body, reply); // METAHOOKS_RECORD_DIR: sampled, off the hook thread
      return Exchange.read(reply, config.logBodies() ? body : null);
    } finally {
      computeSlots.release();
    }
  }

  private static HookError shuttingDown(String message) {
    return new HookError(ErrorCode.SHUTTING_DOWN, message);
  }

  private static boolean isJson(String contentType) {
    String mediaType = contentType.split(";", 2)[0].trim().toLowerCase();
    return mediaType.equals(ReplyWriter.JSON) || mediaType.endsWith("+json");
  }

  @Override
  public void close() {
    workers.shutdownNow();
  }

  /** How long a refused body may take to arrive: the admission wait. */
  static Duration admissionWait(ServerConfig config) {
    return config.hookDeadline().dividedBy(5);
  }
}
