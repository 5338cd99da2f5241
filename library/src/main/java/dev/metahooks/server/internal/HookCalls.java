package dev.metahooks.server.internal;

import dev.metahooks.json.WorkDeadline;
import dev.metahooks.replay.CallInputs;
import dev.metahooks.server.config.ServerConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;

/**
 * One hook call, within its deadline: what can be refused from the headers alone is refused at once (the
 * management port, credentials, the route resolved at the edge, the body limit); then the body's bytes of the
 * budget; the body, read on a thread of its own so that this one can answer at the deadline however slowly it
 * arrives; a hook slot, only now that the whole body is in; on a hook thread a compute slot and the answer from
 * the {@link FrontDoor} (and, after the answer is handed over, the recording); then the answer's allowance while
 * the server delivers the reply. Each bound is taken by {@link Admission} only for as long as it is needed. A call not answered within the
 * deadline gets 503 (Metacontroller retries, nothing is applied).
 */
public final class HookCalls implements AutoCloseable {
  private static final Logger LOG = ServerLog.LOG;

  /** What a body of unknown length (chunked) takes of the budget at first; it takes more as it grows. */
  private static final long CHUNKED_START = 64 * 1024;

  /**
   * What a compute slot keeps room for, in answers of the largest size: an answer's tree and its bytes (six times
   * its bytes at most, see {@code AnswerSize.defaultLimit}).
   */
  static final int SLOT_ROOM = 6;

  private final ServerConfig config;
  private final FrontDoor frontDoor;

  /** Null when hook calls need no credentials. */
  private final BearerToken token;

  private final Admission admission;
  private final Recorder recorder;
  private final RequestBodies bodies;
  private final BooleanSupplier draining;

  /**
   * Of the calls holding a hook slot, how many parse, run and write at once ({@link ServerConfig#computeSlots});
   * each running call holds its request as a tree: eight 4 MB requests at once made the collector copy 100 MB of
   * trees on every young collection, and throughput fell from 16 to 7 calls a second (docs/performance.md).
   */
  private final Semaphore computeSlots;

  private final ExecutorService workers;

  /** Threads that wait for bodies: as many as Jetty has threads to wait for them. */
  private final ExecutorService readers;

  public HookCalls(
      ServerConfig config,
      FrontDoor frontDoor,
      BearerToken token,
      Admission admission,
      RequestBodies bodies,
      Recorder recorder,
      BooleanSupplier draining) {
    this.config = config;
    this.frontDoor = frontDoor;
    this.token = token;
    this.admission = admission;
    this.bodies = bodies;
    this.recorder = recorder;
    this.draining = draining;
    this.computeSlots = new Semaphore(config.computeSlots(), true);
    this.workers = Executors.newFixedThreadPool(config.maxConcurrentHooks(), daemons("hook-"));
    this.readers = Executors.newCachedThreadPool(daemons("body-"));
  }

  /** Daemon threads named {@code prefix} and a number: none of them may keep the process from exiting. */
  static java.util.concurrent.ThreadFactory daemons(String prefix) {
    AtomicInteger threads = new AtomicInteger();
    return r -> {
      Thread thread = new Thread(r, prefix + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * What the server does with a call's reply, while the call still holds what the reply needs (its answer's
   * allowance): write it, and count and log the call.
   */
  public interface Delivery {
    /**
     * @param bodyRead whether the whole request body was read (else the connection cannot serve another call)
     * @param request the request's bytes, kept only to log them (null otherwise)
     */
    void deliver(Reply reply, boolean bodyRead, byte[] request);
  }

  /** How far the call got with its body: what the connection can do after the reply. */
  private enum Body {
    /** Not read: the connection is closed after the reply, once what is left of the body is thrown away. */
    UNREAD,
    /** Given up on while it may still be arriving: the reader is left alone, and the connection closed. */
    ARRIVING,
    /** Read whole: the connection can serve the next call. */
    READ
  }

  /**
   * The call, from its headers to its reply, delivered whatever the outcome; {@code route} is null when
   * {@code /<controller>/<hook>} is not served. A training call ({@code training}) needs no credentials and is
   * never recorded. Each refusal on the way is thrown as a {@link HookError} (or an exception it maps) and becomes
   * the reply here, once.
   */
  public void call(
      Context ctx,
      String controller,
      String hook,
      Route route,
      boolean training,
      Delivery delivery) {
    Body body = Body.UNREAD;
    byte[] request = null;
    Reply reply;
    Admission.Bytes allowance = Admission.Bytes.NONE;
    try {
      refuseFromHeaders(ctx, controller, hook, route, training);
      long declared = ctx.req().getContentLengthLong(); // a long: an int says -1 above 2^31
      long arrived = System.nanoTime();
      long until = arrived + config.hookDeadline().toNanos();
      Admission.Bytes budget = admitted(route, declared, arrived);
      try {
        Future<byte[]> reading = read(ctx, budget);
        try {
          request = reading.get(left(until), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          body = Body.ARRIVING; // the reader ends when the connection is closed after this answer
          throw deadline();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          body = Body.ARRIVING;
          throw shuttingDown("interrupted; retry");
        } catch (
            ExecutionException
                e) { // the stream failed, too large, too slow, no room for a chunked body
          ServerLog.exitOnOutOfMemory(e.getCause());
          throw HookError.from(e.getCause());
        }
        body = Body.READ;
        reply = computed(route, request, budget, until, !training);
        // A cached answer is held by the cache already; an answer of this call takes the allowance
        // while written.
        allowance = admission.answer(reply.cached() ? 0 : reply.body().size());
      } finally {
        budget.release(); // this thread's hold; the reader's or the worker's may last longer
      }
    } catch (HookError | Admission.Refused e) { // a refusal on the way, mapped once
      reply = Reply.of(HookError.from(e));
      request = null;
    }
    try {
      delivery.deliver(reply, body == Body.READ, config.logBodies() ? request : null);
    } finally {
      allowance.release(); // the answer's allowance, once it is out or abandoned
    }
    if (body == Body.UNREAD) {
      bodies.discard(ctx);
    }
  }

  /** What can be refused from the request line and headers alone, before the body takes any memory. */
  private void refuseFromHeaders(
      Context ctx, String controller, String hook, Route route, boolean training) {
    if (onManagementPort(ctx)) {
      throw new HookError(ErrorCode.NOT_FOUND, "hooks are not served on the management port");
    }
    if (token != null && !training && !token.accepts(ctx.header("Authorization"))) {
      throw new HookError(ErrorCode.UNAUTHORIZED, "missing or invalid credentials");
    }
    if (route == null) {
      throw frontDoor.routes().notServed(controller, hook);
    }
    if (draining.getAsBoolean()) {
      LOG.atDebug()
          .addKeyValue("controller", controller)
          .addKeyValue("hook", hook)
          .log("draining: 503");
      throw shuttingDown("the server is shutting down; retry");
    }
    String contentType = ctx.contentType();
    if (contentType != null && !isJson(contentType)) {
      throw new HookError(
          ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          "Content-Type must be application/json, got '" + contentType + "'");
    }
    frontDoor.admit(ctx.req().getContentLengthLong());
  }

  /** The body's bytes of the budget, from its declared length (or a first share of a chunked body). */
  private Admission.Bytes admitted(Route route, long declared, long arrived) {
    try {
      return admission.body(
          declared >= 0 ? declared : Math.min(CHUNKED_START, config.maxBodyBytes()));
    } catch (Admission.Refused e) {
      LOG.atDebug()
          .addKeyValue("controller", route.controllerName())
          .addKeyValue("hook", route.hookPath())
          .addKeyValue("waitedMs", (System.nanoTime() - arrived) / 1_000_000)
          .log("not admitted in time: 429");
      throw e;
    }
  }

  /** The body, read on a thread of its own that holds its bytes of the budget until it is in. */
  private Future<byte[]> read(Context ctx, Admission.Bytes budget) {
    try {
      budget.hold(); // by the reader, until the body is in
      return readers.submit(
          () -> {
            try {
              return bodies.read(ctx, budget);
            } finally {
              budget.release();
            }
          });
    } catch (RejectedExecutionException e) {
      budget.release();
      throw shuttingDown("the server is shutting down; retry");
    }
  }

  /** A hook slot, then the answer computed on a hook thread, within the deadline. */
  private Reply computed(
      Route route, byte[] request, Admission.Bytes budget, long until, boolean record) {
    Admission.Slot slot = admission.slot(until);
    LOG.atDebug()
        .addKeyValue("controller", route.controllerName())
        .addKeyValue("hook", route.hookPath())
        .addKeyValue("bodyBytes", request.length)
        .log("admitted to a hook slot");
    CompletableFuture<Reply> computed = new CompletableFuture<>();
    Computing computing = new Computing();
    Admission.Hold held = budget.holder(); // by the worker, until it has computed and recorded
    try {
      workers.execute(
          () -> compute(route, request, held, slot, until, record, computed, computing));
    } catch (RejectedExecutionException e) {
      held.release();
      slot.release();
      throw shuttingDown("the server is shutting down; retry");
    }
    try {
      return computed.get(left(until), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      // Given up on: the hook slot and the body's budget go back now, so that the retry is admitted
      // as if this call
      // had never been; the worker stops at its next token or child (or wait, interrupted) and
      // ends.
      computed.cancel(false);
      slot.release();
      held.release();
      computing.stop();
      throw deadline();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw shuttingDown("interrupted; retry");
    } catch (ExecutionException e) {
      ServerLog.exitOnOutOfMemory(e.getCause());
      LOG.atError()
          .addKeyValue("controller", route.controllerName())
          .addKeyValue("hook", route.hookPath())
          .addKeyValue("error", e.getCause().toString())
          .log("hook call failed");
      throw HookError.from(e.getCause());
    }
  }

  /**
   * On a hook thread: a compute slot, the hook, the answer handed over; then, still in the compute slot, the
   * recording, unless other calls wait for a compute slot. The recording holds the request's bytes and the answer's
   * within the room the compute slot keeps for an answer's tree and bytes ({@link #SLOT_ROOM}), which it no longer
   * needs, and gives the request's bytes back to the body budget first: a recording never makes a call wait.
   */
  private void compute(
      Route route,
      byte[] request,
      Admission.Hold body,
      Admission.Slot slot,
      long until,
      boolean record,
      CompletableFuture<Reply> computed,
      Computing computing) {
    String controller = route.controllerName();
    String hook = route.hookPath();
    computing.start();
    try {
      if (!computeSlots.tryAcquire(left(until), TimeUnit.NANOSECONDS)) {
        computed.completeExceptionally(deadline());
        return;
      }
      try {
        if (computed.isDone()) { // given up on while waiting
          return;
        }
        CallInputs inputs =
            CallInputs.live(Instant.now()); // the time and secrets the hook sees, for a recording
        Reply reply =
            inputs.during(() -> WorkDeadline.within(until, () -> frontDoor.answer(route, request)));
        computing.end(); // no interruption from here: a recording is written whole
        slot.release(); // the hook has computed: the slot is free for the next call
        computed.complete(reply);
        if (record && recorder.samples(reply)) {
          if (computeSlots.hasQueuedThreads()) {
            recorder.drop(
                Recorder.Drop.BUSY, controller, hook, "other calls wait for a compute slot");
          } else if (request.length + reply.body().size() > SLOT_ROOM * config.maxResponseBytes()) {
            recorder.drop(
                Recorder.Drop.TOO_LARGE,
                controller,
                hook,
                "request and answer are larger than "
                    + SLOT_ROOM
                    + " x METAHOOKS_MAX_RESPONSE_BYTES");
          } else {
            body.release();
            recorder.record(controller, hook, request, reply, inputs);
          }
        }
      } finally {
        computeSlots.release();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      computed.completeExceptionally(e);
    } catch (Throwable e) { // an OutOfMemoryError included: the caller ends the process
      computed.completeExceptionally(e);
      ServerLog.exitOnOutOfMemory(e);
    } finally {
      computing.end();
      slot.release();
      body.release();
    }
  }

  /** The hook thread computing a call, while it does: the one answering the call interrupts it on giving up. */
  private static final class Computing {
    private Thread thread;

    synchronized void start() {
      thread = Thread.currentThread();
    }

    /** No interruption after this, and none left over for the thread's next call. */
    synchronized void end() {
      if (thread != null) {
        thread = null;
        Thread.interrupted();
      }
    }

    synchronized void stop() {
      if (thread != null) {
        thread.interrupt();
      }
    }
  }

  private static long left(long until) {
    return Math.max(0, until - System.nanoTime());
  }

  private HookError deadline() {
    return new HookError(
        ErrorCode.DEADLINE_EXCEEDED,
        "no answer within " + config.hookDeadline().toMillis() + " ms; retry");
  }

  private static HookError shuttingDown(String message) {
    return new HookError(ErrorCode.SHUTTING_DOWN, message);
  }

  /** The management port serves probes and metrics, never hooks. */
  public boolean onManagementPort(Context ctx) {
    return config.managementPort() > 0 && ctx.req().getLocalPort() == config.managementPort();
  }

  private static boolean isJson(String contentType) {
    String mediaType = contentType.split(";", 2)[0].trim().toLowerCase();
    return mediaType.equals(ReplyWriter.JSON) || mediaType.endsWith("+json");
  }

  @Override
  public void close() {
    workers.shutdownNow();
    readers.shutdownNow();
  }

  /** How long a refused body may take to arrive: the admission wait. */
  public static Duration admissionWait(ServerConfig config) {
    return config.hookDeadline().dividedBy(5);
  }
}
