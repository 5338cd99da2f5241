package dev.metahooks.server;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.json.SharedSubtrees;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Writes an answer as JSON bytes, at most {@code maxBytes} of them: the bound of last resort behind the estimates
 * of the hooks that amplify ({@code dev.metahooks.api.AnswerSize}). Writing stops at the limit, so that an answer
 * too large to send is never held whole (nor cached). The bytes go into {@link Blocks}, written once and never
 * copied as they grow; the ETag's hash is taken as they are written, not in a second pass over them. A subtree that
 * several children hold (their template's containers, say: {@code kube.PathCopies}) is written once per answer and
 * its bytes copied wherever it recurs ({@link SharedSubtrees}); the bytes are the same as Jackson's own. The answer is
 * held until it is complete, because its ETag header comes first and an answer over the limit must become a 422,
 * never a cut 200.
 */
final class AnswerWriter {
  /**
   * Built once: a writer holds the configuration lookups a mapper would redo on every call. Subtrees that children
   * share are written once per answer and copied wherever they recur ({@link SharedSubtrees}).
   */
  private static final ObjectWriter WRITER = SharedSubtrees.writing(JsonTrees.MAPPER).writer();

  /** The answer would be larger than the limit; {@link #field()} is where writing stopped. */
  static final class TooLargeException extends IOException {
    private static final long serialVersionUID = 1L;
    private final String field;

    TooLargeException(String field, String message) {
      super(message);
      this.field = field;
    }

    String field() {
      return field;
    }
  }

  /** The bytes of an answer and their ETag. */
  record Written(Blocks bytes, String etag) {
    /** An error's body, which has no ETag. */
    static Written of(HookError error) {
      return new Written(Blocks.of(error(error)), null);
    }
  }

  private final long maxBytes;

  AnswerWriter(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /**
   * @throws TooLargeException past the limit
   * @throws IOException when the body cannot be written as JSON
   */
  Written write(Object body) throws IOException {
    Bounded out = new Bounded(Digests.streaming());
    JsonGenerator generator = WRITER.createGenerator(out);
    try {
      WRITER.writeValue(generator, body);
    } catch (IOException | RuntimeException e) { // Jackson may wrap what the stream threw
      if (causedBy(e)) {
        List<String> path = path(generator.getOutputContext());
        throw new TooLargeException(path.isEmpty() ? "response" : path.get(0), "the answer is larger than "
            + maxBytes + " bytes (METAHOOKS_MAX_RESPONSE_BYTES); writing stopped at " + String.join("", path));
      }
      throw e;
    }
    return new Written(out.sink.finish(), Digests.finish(out.digest).etag());
  }

  /** An error's JSON body: small, and always writable. */
  static byte[] error(HookError error) {
    try {
      return WRITER.writeValueAsBytes(error.body());
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean causedBy(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof Overflow) {
        return true;
      }
    }
    return false;
  }

  /** Where the generator was, outermost first: {@code children}, {@code [9123]}, {@code .spec}. */
  private static List<String> path(JsonStreamContext context) {
    List<String> segments = new ArrayList<>();
    for (JsonStreamContext at = context; at != null && !at.inRoot(); at = at.getParent()) {
      if (at.inArray()) {
        segments.add("[" + Math.max(0, at.getCurrentIndex()) + "]");
      } else if (at.getCurrentName() != null) {
        segments.add((at.getParent() != null && at.getParent().inRoot() ? "" : ".") + at.getCurrentName());
      }
    }
    Collections.reverse(segments);
    return segments;
  }

  /** Bytes within the limit, hashed as they come (Jackson hands them over in blocks of its buffer). */
  private final class Bounded extends OutputStream {
    private final Blocks.Sink sink = new Blocks.Sink();
    private final MessageDigest digest;

    Bounded(MessageDigest digest) {
      this.digest = digest;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      grow(length);
      digest.update(bytes, offset, length);
      sink.write(bytes, offset, length);
    }

    @Override
    public void write(int b) {
      grow(1);
      digest.update((byte) b);
      sink.write(b);
    }

    private void grow(int length) {
      if (sink.size() + length > maxBytes) {
        throw new Overflow();
      }
    }
  }

  /** Thrown by the stream (which may not throw IOException) past the limit. */
  private static final class Overflow extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }
}
