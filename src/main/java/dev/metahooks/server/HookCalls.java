package dev.metahooks.server;

import dev.metahooks.replay.CallInputs;
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
import org.slf4j.LoggerFactory;

/**
 * One hook call, within its deadline: what can be refused from the headers alone is refused at once; then the
 * body's bytes of the budget; the body, read on a thread of its own so that this one can answer at the deadline
 * however slowly it arrives; a hook slot, only now that the whole body is in; on a hook thread a compute slot and
 * the dispatcher (and, after the answer is handed over, the recording); then the answer's allowance to be written.
 * Each bound is taken by {@link Admission} only for as long as it is needed. A call not answered within the
 * deadline gets 503 (Metacontroller retries, nothing is applied).
 */
final class HookCalls implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HookServer.class);
  /** What a body of unknown length (chunked) takes of the budget at first; it takes more as it grows. */
  private static final long CHUNKED_START = 64 * 1024;
  /**
   * What a compute slot keeps room for, in answers of the largest size: an answer's tree and its bytes (six times
   * its bytes at most, see {@code AnswerSize.defaultLimit}).
   */
  static final int SLOT_ROOM = 6;

  private final ServerConfig config;
  private final HookDispatcher dispatcher;
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

  HookCalls(ServerConfig config, HookDispatcher dispatcher, Admission admission, RequestBodies bodies,
      Recorder recorder, BooleanSupplier draining) {
    this.config = config;
    this.dispatcher = dispatcher;
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

  /** The call, from its headers to the reply to write; a training call ({@code record} false) is never recorded. */
  Exchange call(Context ctx, String controller, String hook, boolean record) {
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
    long until = arrived + config.hookDeadline().toNanos();
    Admission.Bytes body;
    try {
      body = admission.body(declared >= 0 ? declared : Math.min(CHUNKED_START, config.maxBodyBytes()));
    } catch (Admission.Refused e) {
      LOG.atDebug().addKeyValue("controller", controller).addKeyValue("hook", hook)
          .addKeyValue("waitedMs", (System.nanoTime() - arrived) / 1_000_000).log("not admitted in time: 429");
      return Exchange.unread(HookError.from(e));
    }
    try {
      return admitted(ctx, controller, hook, body, until, record);
    } finally {
      body.release(); // this thread's hold; the reader's or the worker's may last longer
    }
  }

  private Exchange admitted(Context ctx, String controller, String hook, Admission.Bytes body, long until,
      boolean record) {
    Future<byte[]> reading;
    try {
      body.hold(); // by the reader, until the body is in
      reading = readers.submit(() -> {
        try {
          return bodies.read(ctx, body);
        } finally {
          body.release();
        }
      });
    } catch (RejectedExecutionException e) {
      body.release();
      return Exchange.unread(shuttingDown("the server is shutting down; retry"));
    }
    byte[] request;
    try {
      request = reading.get(left(until), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return Exchange.abandoned(deadline()); // the reader ends when the connection is closed after this answer
    } catch (ExecutionException e) { // the stream failed, too large, too slow, no room for a chunked body
      HookServer.exitOnOutOfMemory(e.getCause());
      return Exchange.unread(HookError.from(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Exchange.abandoned(shuttingDown("interrupted; retry"));
    }
    Admission.Slot slot;
    try {
      slot = admission.slot(until);
    } catch (Admission.Refused e) {
      return Exchange.read(HookError.from(e));
    }
    LOG.atDebug().addKeyValue("controller", controller).addKeyValue("hook", hook)
        .addKeyValue("bodyBytes", request.length).log("admitted to a hook slot");
    CompletableFuture<Reply> computed = new CompletableFuture<>();
    try {
      body.hold(); // by the worker, until it has computed and recorded
      workers.execute(() -> compute(controller, hook, request, body, slot, until, record, computed));
    } catch (RejectedExecutionException e) {
      body.release();
      slot.release();
      return Exchange.read(shuttingDown("the server is shutting down; retry"));
    }
    Reply reply;
    try {
      reply = computed.get(left(until), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      computed.cancel(false); // a worker still waiting for a compute slot gives up; one computing goes on
      return Exchange.read(deadline());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Exchange.read(shuttingDown("interrupted; retry"));
    } catch (ExecutionException e) {
      HookServer.exitOnOutOfMemory(e.getCause());
      LOG.atError().addKeyValue("controller", controller).addKeyValue("hook", hook)
          .addKeyValue("error", e.getCause().toString()).log("hook call failed");
      return Exchange.read(HookError.from(e.getCause()));
    }
    try {
      // A cached answer is held by the cache already; an answer of this call takes the allowance while written.
      Admission.Bytes answer = admission.answer(reply.cached() ? 0 : reply.body().size());
      return Exchange.read(reply, config.logBodies() ? request : null, answer);
    } catch (Admission.Refused e) {
      return Exchange.read(HookError.from(e));
    }
  }

  /**
   * On a hook thread: a compute slot, the hook, the answer handed over; then, still in the compute slot, the
   * recording, unless other calls wait for a compute slot. The recording holds the request's bytes and the answer's
   * within the room the compute slot keeps for an answer's tree and bytes ({@link #SLOT_ROOM}), which it no longer
   * needs, and gives the request's bytes back to the body budget first: a recording never makes a call wait.
   */
  private void compute(String controller, String hook, byte[] request, Admission.Bytes body, Admission.Slot slot,
      long until, boolean record, CompletableFuture<Reply> computed) {
    boolean bodyHeld = true;
    try {
      if (!computeSlots.tryAcquire(left(until), TimeUnit.NANOSECONDS)) {
        computed.completeExceptionally(deadline());
        return;
      }
      try {
        if (computed.isDone()) { // given up on while waiting
          return;
        }
        CallInputs inputs = CallInputs.live(Instant.now()); // the time and secrets the hook sees, for a recording
        Reply reply = inputs.during(() -> dispatcher.reply(controller, hook, request));
        slot.release(); // the hook has computed: the slot is free for the next call
        computed.complete(reply);
        if (record && recorder.samples(reply)) {
          if (computeSlots.hasQueuedThreads()) {
            recorder.drop(Recorder.Drop.BUSY, controller, hook, "other calls wait for a compute slot");
          } else if (request.length + reply.body().size() > SLOT_ROOM * config.maxResponseBytes()) {
            recorder.drop(Recorder.Drop.TOO_LARGE, controller, hook, "request and answer are larger than "
                + SLOT_ROOM + " x METAHOOKS_MAX_RESPONSE_BYTES");
          } else {
            body.release();
            bodyHeld = false;
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
      HookServer.exitOnOutOfMemory(e);
    } finally {
      slot.release();
      if (bodyHeld) {
        body.release();
      }
    }
  }

  private static long left(long until) {
    return Math.max(0, until - System.nanoTime());
  }

  private HookError deadline() {
    return new HookError(ErrorCode.DEADLINE_EXCEEDED, "no answer within " + config.hookDeadline().toMillis()
        + " ms; retry");
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
    readers.shutdownNow();
  }

  /** How long a refused body may take to arrive: the admission wait. */
  static Duration admissionWait(ServerConfig config) {
    return config.hookDeadline().dividedBy(5);
  }
}
