package dev.metahooks.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes sampled hook calls that were answered 200 to {@code METAHOOKS_RECORD_DIR}, one JSON file per call, for
 * {@code metahooks diff} and for new fixtures: {@code {"controller", "hook", "version", "recordedAt", "request",
 * "response"}}, with every Secret value redacted as in the logs (a Secret stays a Secret with valid base64
 * {@code data}, so the request replays).
 *
 * <p>Off the hook's path: a call hands its bytes to a queue of a few entries and a thread of its own parses,
 * redacts and writes; when the queue is full the call is not recorded. The directory holds at most
 * {@code maxFiles} recordings and {@code maxBytes} in all; the oldest go first (file names sort by time).
 */
public final class Recorder implements AutoCloseable {
  static final String SUFFIX = ".json";
  private static final Logger LOG = LoggerFactory.getLogger(Recorder.class);
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final int QUEUED = 4;
  private static final Call STOP = new Call(null, null, null, null, null);

  private record Call(String controller, String hook, byte[] request, Blocks response, Instant at) {}

  private final ServerConfig.Recording settings;
  private final BlockingQueue<Call> queue = new ArrayBlockingQueue<>(QUEUED);
  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  /** The recordings in the directory, oldest first, and their bytes: only the writer thread touches them. */
  private final Deque<Path> files = new ArrayDeque<>();
  private long bytes;
  private final Thread writer;

  public Recorder(ServerConfig.Recording settings) {
    this.settings = settings;
    if (!settings.enabled()) {
      this.writer = null;
      return;
    }
    loadExisting();
    this.writer = new Thread(this::writeLoop, "recorder");
    writer.setDaemon(true);
    writer.start();
    LOG.atInfo().addKeyValue("dir", settings.dir().toString()).addKeyValue("sample", settings.sample())
        .addKeyValue("maxFiles", settings.maxFiles()).addKeyValue("maxBytes", settings.maxBytes())
        .log("recording hook calls");
  }

  /** A finished call: recorded when it is a 200, falls on the sample and there is room in the queue. */
  public void offer(String controller, String hook, byte[] request, Reply reply) {
    if (writer == null || reply.status() != 200 || reply.cached() || request == null) {
      return;
    }
    if (calls.getAndIncrement() % settings.sample() != 0) {
      return;
    }
    if (!queue.offer(new Call(controller, hook, request, reply.body(), Instant.now()))) {
      dropped.incrementAndGet();
    }
  }

  /** Recordings written since start. */
  public long written() {
    return written.get();
  }

  /** Sampled calls not recorded because the writer was behind. */
  public long dropped() {
    return dropped.get();
  }

  @Override
  public void close() {
    if (writer == null) {
      return;
    }
    queue.clear();
    queue.offer(STOP);
    try {
      writer.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void writeLoop() {
    long sequence = 0;
    while (true) {
      Call call;
      try {
        call = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      if (call == STOP) {
        return;
      }
      try {
        write(call, ++sequence);
      } catch (IOException | RuntimeException e) {
        LOG.atWarn().addKeyValue("controller", call.controller()).addKeyValue("hook", call.hook())
            .addKeyValue("error", e.toString()).log("hook call not recorded");
      }
    }
  }

  private void write(Call call, long sequence) throws IOException {
    ObjectNode recording = Json.object();
    recording.put("controller", call.controller());
    recording.put("hook", call.hook());
    recording.put("version", BuildInfo.version());
    recording.put("recordedAt", call.at().toString());
    recording.set("request", Redaction.redactSecretsReplayable(Json.MAPPER.readTree(call.request())));
    recording.set("response", Redaction.redactSecretsReplayable(Json.MAPPER.readTree(call.response().stream())));
    byte[] content = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(recording);
    if (content.length > settings.maxBytes()) {
      LOG.atWarn().addKeyValue("bytes", content.length).log("hook call not recorded: larger than "
          + "METAHOOKS_RECORD_MAX_BYTES");
      return;
    }
    while (!files.isEmpty() && (files.size() >= settings.maxFiles() || bytes + content.length > settings.maxBytes())) {
      removeOldest();
    }
    String name = STAMP.format(call.at()) + "-" + String.format("%06d", sequence % 1_000_000) + "-"
        + call.controller() + "-" + call.hook() + SUFFIX;
    Path file = settings.dir().resolve(name);
    Path partial = settings.dir().resolve("." + name + ".partial"); // never a half-written recording
    Files.write(partial, content);
    Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    files.addLast(file);
    bytes += content.length;
    written.incrementAndGet();
  }

  private void removeOldest() throws IOException {
    Path oldest = files.removeFirst();
    long size = Files.exists(oldest) ? Files.size(oldest) : 0;
    Files.deleteIfExists(oldest);
    bytes -= size;
  }

  /** Recordings of an earlier run count against the bounds too. */
  private void loadExisting() {
    try (Stream<Path> listed = Files.list(settings.dir())) {
      listed.filter(f -> f.getFileName().toString().endsWith(SUFFIX) && !f.getFileName().toString().startsWith("."))
          .sorted().forEach(f -> {
            files.addLast(f);
            try {
              bytes += Files.size(f);
            } catch (IOException e) {
              // gone meanwhile: counted as empty
            }
          });
    } catch (IOException e) {
      LOG.atWarn().addKeyValue("error", e.toString()).log("earlier recordings cannot be listed");
    }
  }

  /** A recording as written: what {@code metahooks diff} reads. */
  public static boolean isRecording(JsonNode node) {
    return node.isObject() && node.has("controller") && node.has("hook") && node.path("request").isObject();
  }
}
