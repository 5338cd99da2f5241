package dev.metahooks.server.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.replay.CallInputs;
import dev.metahooks.server.config.ServerConfig;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes sampled hook calls that were answered 200 to {@code METAHOOKS_RECORD_DIR}, one JSON file per call, for
 * {@code metahooks diff} and for new fixtures: {@code {"controller", "hook", "version", "recordedAt", "request",
 * "response"}}, with every Secret value redacted as in the logs (a Secret stays a Secret with valid base64
 * {@code data}, so the request replays), or, with the operator's {@link RecordingKey}, sealed under it, and then
 * with the secrets the call generated ({@code "generated"}, by purpose, sealed too): {@code metahooks diff} with
 * the same key gives the hook what it saw, so that an unchanged build answers exactly as recorded.
 * {@code recordedAt} is the instant the hook saw ({@link CallInputs}).
 *
 * <p>Inside the memory bounds: a call is recorded by the thread that computed it, after its answer was handed
 * over, while it still holds its compute slot and its request's bytes in the body budget; nothing is queued or
 * copied, and the request is streamed to disk one object at a time ({@link StreamingRedaction}). A call is not
 * recorded (counted by reason, and logged at most once a minute) when other calls wait for a compute slot, when
 * its recording would be larger than the directory may hold, or when it cannot be written (a full disk). Each
 * file is written under a temporary name, owner-only, and renamed into place; the directory holds at most
 * {@code maxFiles} recordings and {@code maxBytes} in all, the oldest go first (file names sort by time).
 */
public final class Recorder {
  public static final String SUFFIX = ".json";
  private static final String PARTIAL = ".partial";
  private static final Logger LOG = LoggerFactory.getLogger(Recorder.class);
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

  /** Why a sampled call was not recorded: the metric's {@code reason}. */
  public enum Drop {
    BUSY("busy"),
    TOO_LARGE("too_large"),
    FAILED("failed");

    public final String tag;

    Drop(String tag) {
      this.tag = tag;
    }
  }

  private final ServerConfig.Recording settings;

  /** Secret values are sealed under it, or masked without one. */
  private final Redaction.Replacement secrets;

  private final RecordingKey key;
  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong sequence = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final Map<Drop, AtomicLong> dropped = new EnumMap<>(Drop.class);
  private final OncePer dropWarning = new OncePer(Duration.ofMinutes(1));

  /** The recordings in the directory, oldest first, and their bytes; guarded by itself. */
  private final Deque<Path> files = new ArrayDeque<>();

  private long bytes;

  public Recorder(ServerConfig.Recording settings) {
    this.settings = settings;
    this.key =
        settings.keyFile() == null
            ? null
            : RecordingKey.read(settings.keyFile(), "METAHOOKS_RECORD_KEY_FILE");
    this.secrets =
        key == null ? Redaction.Replacement.mask(true) : Redaction.Replacement.sealed(key);
    for (Drop reason : Drop.values()) {
      dropped.put(reason, new AtomicLong());
    }
    if (!settings.enabled()) {
      return;
    }
    loadExisting();
    LOG.atInfo()
        .addKeyValue("dir", settings.dir().toString())
        .addKeyValue("sample", settings.sample())
        .addKeyValue("maxFiles", settings.maxFiles())
        .addKeyValue("maxBytes", settings.maxBytes())
        .addKeyValue("secrets", key == null ? "masked" : "sealed")
        .log("recording hook calls");
  }

  /** Whether this finished call is one to record: recording is on, a 200 computed now, and on the sample. */
  boolean samples(Reply reply) {
    return settings.enabled()
        && reply.status() == 200
        && !reply.cached()
        && calls.getAndIncrement() % settings.sample() == 0;
  }

  /** Recordings written since start. */
  public long written() {
    return written.get();
  }

  /** Sampled calls not recorded, for any reason. */
  public long dropped() {
    return dropped.values().stream().mapToLong(AtomicLong::get).sum();
  }

  long dropped(Drop reason) {
    return dropped.get(reason).get();
  }

  /** A sampled call that is not recorded: counted, and a warning at most once a minute. */
  void drop(Drop reason, String controller, String hook, String detail) {
    long count = dropped.get(reason).incrementAndGet();
    if (dropWarning.due()) {
      LOG.atWarn()
          .addKeyValue("controller", controller)
          .addKeyValue("hook", hook)
          .addKeyValue("reason", reason.tag)
          .addKeyValue("detail", detail)
          .addKeyValue("droppedSoFar", dropped())
          .log(
              "hook call not recorded ("
                  + reason.tag
                  + ", "
                  + count
                  + " so far); further ones this minute are "
                  + "only counted");
    }
  }

  /**
   * Records one call, on the thread that computed it: streamed from the request's bytes and the answer's blocks
   * to a temporary file, then renamed into place.
   */
  void record(String controller, String hook, byte[] request, Reply reply, CallInputs inputs) {
    Instant at = inputs.now();
    String name =
        STAMP.format(at)
            + "-"
            + String.format("%06d", sequence.incrementAndGet() % 1_000_000)
            + "-"
            + controller
            + "-"
            + hook
            + SUFFIX;
    Path partial = settings.dir().resolve("." + name + PARTIAL); // never a half-written recording
    try {
      long size;
      try {
        size = write(partial, controller, hook, inputs, request, reply);
      } catch (IOException e) {
        if (!tooLarge(e)) {
          throw e;
        }
        drop(
            Drop.TOO_LARGE,
            controller,
            hook,
            "larger than METAHOOKS_RECORD_MAX_BYTES (" + settings.maxBytes() + ")");
        Files.deleteIfExists(partial);
        return;
      }
      synchronized (files) {
        while (!files.isEmpty()
            && (files.size() >= settings.maxFiles() || bytes + size > settings.maxBytes())) {
          removeOldest();
        }
        Path file = settings.dir().resolve(name);
        Files.move(
            partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        files.addLast(file);
        bytes += size;
      }
      written.incrementAndGet();
    } catch (IOException | RuntimeException e) {
      drop(Drop.FAILED, controller, hook, e.toString());
      try {
        Files.deleteIfExists(partial);
      } catch (IOException gone) {
        // nothing more to do: the partial file has a name that is never read as a recording
      }
    }
  }

  private long write(
      Path partial, String controller, String hook, CallInputs inputs, byte[] request, Reply reply)
      throws IOException {
    createOwnerOnly(partial);
    Bounded counted;
    try (OutputStream file = Files.newOutputStream(partial);
        Bounded bounded =
            new Bounded(new BufferedOutputStream(file, 64 * 1024), settings.maxBytes());
        JsonGenerator out =
            JsonTrees.MAPPER.getFactory().createGenerator(bounded).useDefaultPrettyPrinter()) {
      counted = bounded;
      out.writeStartObject();
      out.writeStringField("controller", controller);
      out.writeStringField("hook", hook);
      out.writeStringField("version", BuildInfo.version());
      out.writeStringField("recordedAt", inputs.now().toString());
      if (key != null
          && !inputs.generated().isEmpty()) { // without a key they could only be masked: of no use
        out.writeObjectFieldStart("generated");
        for (Map.Entry<String, String> secret : inputs.generated().entrySet()) {
          out.writeStringField(secret.getKey(), key.seal(secret.getValue()));
        }
        out.writeEndObject();
      }
      out.writeFieldName("request");
      try (JsonParser in = JsonTrees.MAPPER.getFactory().createParser(request)) {
        StreamingRedaction.copy(in, out, secrets);
      }
      out.writeFieldName("response");
      try (JsonParser in = JsonTrees.MAPPER.getFactory().createParser(reply.body().stream())) {
        StreamingRedaction.copy(in, out, secrets);
      }
      out.writeEndObject();
    }
    return counted.count;
  }

  /** Recordings hold what the hooks saw, Secrets' names and every other object: readable by the owner only. */
  private static void createOwnerOnly(Path file) throws IOException {
    if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } else {
      Files.createFile(file);
    }
  }

  private void removeOldest() throws IOException {
    Path oldest = files.removeFirst();
    long size = Files.exists(oldest) ? Files.size(oldest) : 0;
    Files.deleteIfExists(oldest);
    bytes -= size;
  }

  /** Recordings of an earlier run count against the bounds too; what it left half-written goes. */
  private void loadExisting() {
    try (Stream<Path> listed = Files.list(settings.dir())) {
      listed
          .sorted()
          .forEach(
              f -> {
                String name = f.getFileName().toString();
                try {
                  if (name.startsWith(".") && name.endsWith(PARTIAL)) {
                    Files.deleteIfExists(f);
                  } else if (name.endsWith(SUFFIX) && !name.startsWith(".")) {
                    files.addLast(f);
                    bytes += Files.size(f);
                  }
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
    return node.isObject()
        && node.has("controller")
        && node.has("hook")
        && node.path("request").isObject();
  }

  private static boolean tooLarge(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TooLarge) {
        return true;
      }
    }
    return false;
  }

  /** Past the limit while writing: the recording could never be kept. */
  private static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;
  }

  /** Counts what is written and stops past the limit. */
  private static final class Bounded extends FilterOutputStream {
    private final long limit;
    private long count;

    Bounded(OutputStream out, long limit) {
      super(out);
      this.limit = limit;
    }

    @Override
    public void write(int b) throws IOException {
      grow(1);
      out.write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      grow(length);
      out.write(bytes, offset, length);
    }

    private void grow(int n) throws TooLarge {
      count += n;
      if (count > limit) {
        throw new TooLarge();
      }
    }
  }
}
