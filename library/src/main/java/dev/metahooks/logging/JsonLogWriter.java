package dev.metahooks.logging;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import org.slf4j.event.KeyValuePair;

/**
 * Formats one event as one JSON line: time, level, logger, thread, message, the event's fields, error. A line is
 * written as UTF-8 into a buffer its thread reuses and handed to the stream in one write; the time's second is
 * formatted once per second: the access log writes a line per call, and was a quarter of a small call's work.
 */
final class JsonLogWriter {
  private static final JsonFactory JSON = new JsonFactory();
  private static final ThreadLocal<Line> LINES = ThreadLocal.withInitial(Line::new);
  private final PrintStream out;

  JsonLogWriter(PrintStream out) {
    this.out = out;
  }

  /** A thread's line buffer, and the last second it formatted. */
  static final class Line extends ByteArrayOutputStream {
    /** A buffer grown past this by a long line (bodies logged for debugging) is not kept. */
    private static final int KEPT = 64 * 1024;

    private long second = Long.MIN_VALUE;

    /** {@code 2026-01-02T03:04:05.}: the time up to its fraction. */
    private String secondText;

    Line() {
      super(512);
    }

    /** {@code instant} as {@link Instant#toString} writes it, to the nanosecond. */
    String time(Instant instant) {
      if (instant.getEpochSecond() != second) {
        String whole = Instant.ofEpochSecond(instant.getEpochSecond()).toString(); // ...:05Z
        secondText = whole.substring(0, whole.length() - 1) + ".";
        second = instant.getEpochSecond();
      }
      int nanos = instant.getNano();
      String fraction = Integer.toString(1_000_000_000 + nanos).substring(1);
      return secondText + fraction + "Z";
    }

    boolean grown() {
      return buf.length > KEPT;
    }

    void writeTo(PrintStream out) {
      synchronized (out) {
        out.write(buf, 0, count);
        out.flush();
      }
    }
  }

  void write(
      String level, String logger, String message, List<KeyValuePair> pairs, Throwable error) {
    Line line = LINES.get();
    line.reset();
    try (JsonGenerator json = JSON.createGenerator(line, JsonEncoding.UTF8)) {
      json.writeStartObject();
      json.writeStringField("time", line.time(Instant.now()));
      json.writeStringField("level", level);
      json.writeStringField("logger", logger);
      json.writeStringField("thread", Thread.currentThread().getName());
      json.writeStringField("message", message);
      for (KeyValuePair pair : pairs) {
        writeValue(json, pair.key, pair.value);
      }
      if (error != null) {
        json.writeStringField("error", error.getClass().getName() + ": " + error.getMessage());
        StringWriter stack = new StringWriter();
        error.printStackTrace(new PrintWriter(stack));
        json.writeStringField("stack", stack.toString());
      }
      json.writeEndObject();
    } catch (IOException e) {
      return; // a byte buffer does not fail; nothing sensible to log about logging
    }
    line.write('\n');
    line.writeTo(out);
    if (line.grown()) {
      LINES.remove();
    }
  }

  private static void writeValue(JsonGenerator json, String key, Object value) throws IOException {
    if (value == null) {
      json.writeNullField(key);
    } else if (value instanceof Integer || value instanceof Long) {
      json.writeNumberField(key, ((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      json.writeNumberField(key, ((Number) value).doubleValue());
    } else if (value instanceof Boolean b) {
      json.writeBooleanField(key, b);
    } else {
      json.writeStringField(key, value.toString());
    }
  }
}
